import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountEntity } from '@verity/database';

/**
 * The accounts table: creation, names and webhook secrets. The credit balance moves only with
 * its ledger rows, in LedgerRepository and LeaseRepository.
 */
@Injectable()
export class AccountRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts an account with a zero balance; its id. */
  async create(
    name: string,
    webhookSecret: string,
    manager: EntityManager = this.db.manager,
  ): Promise<string> {
    const repo = manager.getRepository(AccountEntity);
    const account = await repo.save(repo.create({ name, creditsBalance: 0, webhookSecret }));
    return account.id;
  }

  exists(accountId: string, manager: EntityManager = this.db.manager): Promise<boolean> {
    return manager.getRepository(AccountEntity).exists({ where: { id: accountId } });
  }

  /** The account, or null for an unknown id. */
  find(accountId: string): Promise<AccountEntity | null> {
    return this.db.getRepository(AccountEntity).findOne({ where: { id: accountId } });
  }

  async setWebhookSecret(accountId: string, secret: string): Promise<void> {
    await this.db.getRepository(AccountEntity).update({ id: accountId }, { webhookSecret: secret });
  }

  /** Every account, oldest first (an operator's listing: a handful of tenants per instance). */
  listAll(): Promise<AccountEntity[]> {
    return this.db.getRepository(AccountEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(): Promise<number> {
    return this.db.getRepository(AccountEntity).count();
  }
}
