import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One ledger row as the console's billing page shows it. */
export interface LedgerEntryView {
  id: string;
  created_at: string;
  reason: string;
  key_id: string | null;
  key_name: string | null;
  delta: number;
  balance_after: number;
  reference: string | null;
}

/** A page of the ledger, newest first; `next_before` fetches the following (older) page. */
export interface LedgerPage {
  data: LedgerEntryView[];
  next_before: string | null;
}

/** Reads an account's ledger by pages on the (account_id, id) index. */
@Injectable()
export class LedgerReader {
  constructor(private readonly db: DataSource) {}

  async page(accountId: string, before: string | null, limit: number): Promise<LedgerPage> {
    const rows = await this.db.query<
      {
        id: string;
        created_at: Date;
        reason: string;
        key_id: string | null;
        key_name: string | null;
        delta: string;
        balance_after: string;
        reference: string | null;
      }[]
    >(
      `SELECT l.id, l.created_at, l.reason, l.key_id, k.name AS key_name, l.delta, l.balance_after, l.reference
       FROM credit_ledger l LEFT JOIN api_keys k ON k.id = l.key_id AND k.account_id = l.account_id
       WHERE l.account_id = $1 AND ($2::bigint IS NULL OR l.id < $2::bigint)
       ORDER BY l.id DESC LIMIT $3`,
      [accountId, before, limit + 1],
    );
    const data = rows.slice(0, limit).map((r) => ({
      id: String(r.id),
      created_at: r.created_at.toISOString(),
      reason: r.reason,
      key_id: r.key_id,
      key_name: r.key_name,
      delta: Number(r.delta),
      balance_after: Number(r.balance_after),
      reference: r.reference,
    }));
    return { data, next_before: rows.length > limit ? data[data.length - 1].id : null };
  }
}
