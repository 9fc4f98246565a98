import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { KeyMode } from '@verity/contracts';
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
/** Rows read per statement of the replay at boot. */
const REPLAY_PAGE = 5_000;

/** One stored call as the replay at boot reads it. */
export interface ReplayedCall {
  requestId: string;
  scope: HistoryScope;
  at: number;
  values: CallValues;
}

/** A row of the replay's statement. */
interface ReplayRow {
  requestId: string;
  accountId: string;
  mode: KeyMode;
  at: number;
  cursor: string;
  email: string | null;
  phone: string | null;
  ip: string | null;
  subnet: string | null;
}

function valuesOfRow(
  row: Pick<VerifyCallEntity, 'emailHash' | 'phoneHash' | 'ipHash' | 'subnetHash'>,
): CallValues {
  const values: CallValues = {};
  if (row.emailHash) values.email = row.emailHash;
  if (row.phoneHash) values.phone = row.phoneHash;
  if (row.ipHash) values.ip = row.ipHash;
  if (row.subnetHash) values.subnet = row.subnetHash;
  return values;
}

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
    return row ? valuesOfRow(row) : null;
  }

  /**
   * The newest `limit` calls made since `since`, oldest first, a page at a time: what the replay
   * at boot feeds an empty store. The keyset is created_at as PostgreSQL's own text (a Date
   * would cut its microseconds and read a row twice) and request_id.
   */
  async *recentCalls(since: Date, limit: number): AsyncGenerator<ReplayedCall[]> {
    const repo = this.db.getRepository(VerifyCallEntity);
    // Where the newest `limit` calls begin, when there are more since `since`.
    const boundary = await repo
      .createQueryBuilder('c')
      .select('c.created_at::text', 'at')
      .where('c.created_at >= :since', { since })
      .orderBy('c.created_at', 'DESC')
      .offset(limit - 1)
      .limit(1)
      .getRawOne<{ at: string }>();
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const query = repo
        .createQueryBuilder('c')
        .select('c.request_id', 'requestId')
        .addSelect('c.account_id', 'accountId')
        .addSelect('c.mode', 'mode')
        .addSelect('(extract(epoch FROM c.created_at) * 1000)::float8', 'at')
        .addSelect('c.created_at::text', 'cursor')
        .addSelect('c.email_hash', 'email')
        .addSelect('c.phone_hash', 'phone')
        .addSelect('c.ip_hash', 'ip')
        .addSelect('c.subnet_hash', 'subnet')
        .where('c.created_at >= :from::timestamptz', { from: boundary?.at ?? since.toISOString() })
        .orderBy('c.created_at', 'ASC')
        .addOrderBy('c.request_id', 'ASC')
        .limit(REPLAY_PAGE);
      if (after)
        query.andWhere('(c.created_at, c.request_id) > (:at::timestamptz, :id::uuid)', after);
      const rows = await query.getRawMany<ReplayRow>();
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        requestId: row.requestId,
        scope: { accountId: row.accountId, mode: row.mode },
        at: Math.round(row.at),
        values: valuesOfRow({
          emailHash: row.email,
          phoneHash: row.phone,
          ipHash: row.ip,
          subnetHash: row.subnet,
        }),
      }));
      const last = rows[rows.length - 1];
      after = { at: last.cursor, id: last.requestId };
      if (rows.length < REPLAY_PAGE) return;
    }
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
