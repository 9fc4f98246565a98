import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { VerifyCallEntity } from '@verity/database';
import type { CallValues } from '../store/history-store.port';
import type { HistoryScope } from '../values/value-keys';

/** One verify call as the call log writes it. */
export interface CallRow {
  requestId: string;
  scope: HistoryScope;
  at: number;
  values: CallValues;
  fraudScore: number;
  riskReasons: readonly string[];
  creditReasons: readonly string[];
}

/**
 * A call as insertBatch reads it: one flat JSON string, so a call waiting in the call log is a
 * single string for the garbage collector instead of a tree of objects.
 */
export function encodeCallRow(row: CallRow): string {
  return JSON.stringify({
    r: row.requestId,
    a: row.scope.accountId,
    m: row.scope.mode,
    t: row.at,
    e: row.values.email ?? null,
    p: row.values.phone ?? null,
    i: row.values.ip ?? null,
    s: row.values.subnet ?? null,
    f: row.fraudScore,
    rr: row.riskReasons,
    cr: row.creditReasons,
  });
}

/** Rows deleted per retention statement, so one sweep never holds a long lock. */
const DELETE_BATCH = 10_000;

/** The verify_calls table: each verify call's HMACs and score (docs/history.md). */
@Injectable()
export class VerifyCallRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Writes a batch of calls, each encoded by encodeCallRow, in one statement (the call log's
   * flush). Raw SQL: the rows travel as one JSON document read by json_to_recordset, one
   * parameter however many rows.
   */
  async insertBatch(encoded: readonly string[]): Promise<void> {
    if (encoded.length === 0) return;
    await this.db.query(
      `INSERT INTO verify_calls (request_id, account_id, mode, created_at, email_hash, phone_hash,
                                 ip_hash, subnet_hash, fraud_score, risk_reasons, credit_reasons)
       SELECT r, a, m, to_timestamp(t / 1000.0), e, p, i, s, f, rr, cr
       FROM json_to_recordset($1::json) AS x(r uuid, a uuid, m text, t float8, e text, p text,
                                              i text, s text, f smallint, rr text[], cr text[])
       ON CONFLICT (request_id) DO NOTHING`,
      [`[${encoded.join(',')}]`],
    );
  }

  /** The values of one of the scope's calls; null when it has no such call. */
  async valuesOf(scope: HistoryScope, requestId: string): Promise<CallValues | null> {
    const row = await this.db.getRepository(VerifyCallEntity).findOneBy({
      requestId,
      accountId: scope.accountId,
      mode: scope.mode,
    });
    if (!row) return null;
    const values: CallValues = {};
    if (row.emailHash) values.email = row.emailHash;
    if (row.phoneHash) values.phone = row.phoneHash;
    if (row.ipHash) values.ip = row.ipHash;
    if (row.subnetHash) values.subnet = row.subnetHash;
    return values;
  }

  /** Deletes calls made before `cutoff`, a batch at a time; answers how many went. */
  async deleteBefore(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const { affected } = await this.db
        .getRepository(VerifyCallEntity)
        .createQueryBuilder()
        .delete()
        .where(
          `request_id IN (SELECT request_id FROM verify_calls WHERE created_at < :cutoff LIMIT ${DELETE_BATCH})`,
          { cutoff },
        )
        .execute();
      total += affected ?? 0;
      if ((affected ?? 0) < DELETE_BATCH) return total;
    }
  }
}
