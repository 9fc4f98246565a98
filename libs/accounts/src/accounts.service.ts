import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { retryOnTransactionConflict, VerityError } from '@verity/common';
import type { AccountEntity } from '@verity/database';
import { AccountRepository } from './account.repository';
import { ApiKeysService } from './api-keys.service';
import { LedgerRepository } from './ledger.repository';

/** A new account and its first key (the value is shown once). */
export interface CreatedAccount {
  account_id: string;
  api_key: string;
}

/** One account as the operator's `verity accounts list` shows it. */
export interface AccountListing {
  account_id: string;
  name: string;
  created_at: string;
}

/** Operator-side account management: create accounts, add credits. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly db: DataSource,
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeysService,
    private readonly ledger: LedgerRepository,
  ) {}

  /** Creates an account with an initial grant and a key named `default`, in one transaction. */
  async create(name: string, credits: number): Promise<CreatedAccount> {
    const [created] = await this.createWith(name, credits, () => Promise.resolve(undefined));
    return created;
  }

  /**
   * `create`, with `inside` run in the same transaction once the account exists: when it
   * throws, nothing is left behind (no account, credits or key).
   */
  async createWith<T>(
    name: string,
    credits: number,
    inside: (manager: EntityManager, accountId: string) => Promise<T>,
  ): Promise<[CreatedAccount, T]> {
    return this.db.transaction(async (manager) => {
      const accountId = await this.accounts.create(
        name,
        randomBytes(32).toString('base64url'),
        manager,
      );
      if (credits > 0) {
        await this.ledger.applyMovementsIn(manager.queryRunner!, accountId, [
          { delta: credits, reason: 'grant', reference: 'account_created' },
        ]);
      }
      const key = await this.keys.create(accountId, 'default', manager);
      const extra = await inside(manager, accountId);
      return [{ account_id: accountId, api_key: key.key }, extra];
    });
  }

  /**
   * Adds credits to an account; resolves to the new balance. Run again if PostgreSQL aborts it
   * for a conflict with another transaction (docs/credits.md, invariant 1).
   */
  async addCredits(accountId: string, amount: number, reference: string | null): Promise<number> {
    return retryOnTransactionConflict(() => this.topUp(accountId, amount, reference));
  }

  private topUp(accountId: string, amount: number, reference: string | null): Promise<number> {
    return this.db.transaction(async (manager) => {
      if (!(await this.accounts.exists(accountId, manager)))
        throw new VerityError('not_found', `account ${accountId} not found`);
      const { outcomes } = await this.ledger.applyMovementsIn(manager.queryRunner!, accountId, [
        { delta: amount, reason: 'top_up', reference },
      ]);
      return outcomes[0]!;
    });
  }

  async name(accountId: string): Promise<string> {
    return (await this.found(accountId)).name;
  }

  /** The secret the account's batch webhooks are signed with. */
  async webhookSecret(accountId: string): Promise<string> {
    return (await this.found(accountId)).webhookSecret;
  }

  /** A new webhook signing secret; deliveries from now on are signed with it. */
  async rotateWebhookSecret(accountId: string): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    await this.accounts.setWebhookSecret(accountId, secret);
    return secret;
  }

  count(): Promise<number> {
    return this.accounts.count();
  }

  exists(accountId: string): Promise<boolean> {
    return this.accounts.exists(accountId);
  }

  /** Every account, oldest first. */
  async list(): Promise<AccountListing[]> {
    return (await this.accounts.listAll()).map((row) => ({
      account_id: row.id,
      name: row.name,
      created_at: row.createdAt.toISOString(),
    }));
  }

  private async found(accountId: string): Promise<AccountEntity> {
    const row = await this.accounts.find(accountId);
    if (!row) throw new VerityError('not_found', 'account not found');
    return row;
  }
}
