import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { LedgerPage } from '@verity/contracts/wire';
import { ApiKeyEntity, LedgerEntryEntity } from '@verity/database';

/**
 * Lease movements (docs/credits.md) reference the API instance that reserved the credits: an
 * operator's detail (it stays in the table), not something the account's billing page shows.
 */
const INSTANCE_REFERENCED = new Set(['lease_reserved', 'lease_released', 'lease_recovered']);

/** Reads an account's ledger by pages on the (account_id, id) index (the query builder's raw rows: a join's columns, not entities). */
@Injectable()
export class LedgerReader {
  constructor(private readonly db: DataSource) {}

  async page(accountId: string, before: string | null, limit: number): Promise<LedgerPage> {
    const query = this.db
      .getRepository(LedgerEntryEntity)
      .createQueryBuilder('l')
      .leftJoin(ApiKeyEntity, 'k', 'k.id = l.keyId AND k.accountId = l.accountId')
      .select(['l.id AS id', 'l.createdAt AS created_at', 'l.reason AS reason'])
      .addSelect(['l.keyId AS key_id', 'k.name AS key_name', 'l.delta AS delta'])
      .addSelect(['l.balanceAfter AS balance_after', 'l.reference AS reference'])
      .where('l.accountId = :accountId', { accountId })
      .orderBy('l.id', 'DESC')
      .limit(limit + 1);
    if (before !== null) query.andWhere('l.id < :before', { before });
    const rows = await query.getRawMany<{
      id: string;
      created_at: Date;
      reason: string;
      key_id: string | null;
      key_name: string | null;
      delta: string;
      balance_after: string;
      reference: string | null;
    }>();
    const data = rows.slice(0, limit).map((r) => ({
      id: String(r.id),
      created_at: r.created_at.toISOString(),
      reason: r.reason,
      key_id: r.key_id,
      key_name: r.key_name,
      delta: Number(r.delta),
      balance_after: Number(r.balance_after),
      reference: INSTANCE_REFERENCED.has(r.reason) ? null : r.reference,
    }));
    return { data, next_before: rows.length > limit ? data[data.length - 1].id : null };
  }
}
