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
 * A call as insertBatch reads it: one flat string of tab-separated fields (ids, HMACs in
 * base64url, reason codes: none holds a tab), so a call waiting in the call log is a single
 * string for the garbage collector instead of a tree of objects. An absent value is empty.
 */
export function encodeCallRow(row: CallRow): string {
  const v = row.values;
  return [
    row.requestId,
    row.scope.accountId,
    row.scope.mode,
    row.at,
    v.email ?? '',
    v.phone ?? '',
    v.ip ?? '',
    v.subnet ?? '',
    row.fraudScore,
    row.riskReasons.join(','),
    row.creditReasons.join(','),
  ].join('\t');
}

/** The columns of encoded rows, in the order of insertBatch's parameters. */
function columns(encoded: readonly string[]): unknown[][] {
  const out: unknown[][] = Array.from({ length: 11 }, () => new Array<unknown>(encoded.length));
  encoded.forEach((row, r) => {
    const fields = row.split('\t');
    for (let c = 0; c < 11; c++)
      out[c][r] = c >= 4 && c <= 7 && fields[c] === '' ? null : fields[c];
  });
  return out;
}

/** Rows deleted per retention statement, so one sweep never holds a long lock. */
const DELETE_BATCH = 10_000;

/** The verify_calls table: each verify call's HMACs and score (docs/history.md). */
@Injectable()
export class VerifyCallRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Writes a batch of calls, each encoded by encodeCallRow, in one statement (the call log's
   * flush). Raw SQL: unnest of one array per column keeps it one statement with eleven
   * parameters however many rows, and PostgreSQL reads arrays in half the time it reads the
   * same rows as one JSON document.
   */
  async insertBatch(encoded: readonly string[]): Promise<void> {
    if (encoded.length === 0) return;
    await this.db.query(
      `INSERT INTO verify_calls (request_id, account_id, mode, created_at, email_hash, phone_hash,
                                 ip_hash, subnet_hash, fraud_score, risk_reasons, credit_reasons)
       SELECT r, a, m, to_timestamp(t / 1000.0), e, p, i, s, f,
              string_to_array(rr, ','), string_to_array(cr, ',')
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[], $5::text[], $6::text[],
                   $7::text[], $8::text[], $9::smallint[], $10::text[], $11::text[])
            AS x(r, a, m, t, e, p, i, s, f, rr, cr)
       ON CONFLICT (request_id) DO NOTHING`,
      columns(encoded),
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
