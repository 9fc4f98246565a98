import { Injectable } from '@nestjs/common';
import type {
  CREDIT_COST,
  KeyMode,
  StatementCalls,
  StatementGranularity,
  UsageDay,
} from '@verity/contracts';
import { CONSOLE_KEY_ID } from './ledger.repository';

/** The usage operation of batch rows. */
const BATCH_OPERATION: keyof typeof CREDIT_COST = 'batch_row';
import { DataSource } from 'typeorm';

/** Test calls of one key and operation in one hour. */
export interface TestCalls {
  accountId: string;
  keyId: string;
  operation: string;
  hour: Date;
  calls: number;
}

/** Where the usage of each key mode is: test calls move no credits, so they have no column. */
const USAGE_OF: Record<KeyMode, { table: string; credits: string }> = {
  live: { table: 'usage_hourly', credits: 'sum(credits)' },
  test: { table: 'usage_test_hourly', credits: '0' },
};

/**
 * Reads usage_hourly, the one place usage is read from, and usage_test_hourly. The rows of
 * usage_hourly are written with the ledger rows they count (LedgerRepository,
 * LeaseRepository), so a 30-day chart reads at most 720 hours × operations × keys rows and
 * never scans the ledger. usage_test_hourly counts the calls of test keys, which move no
 * credits (`addTestCalls`).
 */
@Injectable()
export class UsageRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * The last `days` UTC days (today included), per day and operation, of the calls of `mode`
   * keys; `keyId` filters. A call refunded in a later hour than it was charged nets to zero:
   * such a day has no usage of it. Test calls cost no credits (0).
   */
  async daily(
    accountId: string,
    days: number,
    keyId: string | null = null,
    mode: KeyMode = 'live',
  ): Promise<UsageDay[]> {
    const { table, credits } = USAGE_OF[mode];
    const rows = await this.db.query<
      { day: string; operation: string; calls: string; credits: string }[]
    >(
      `SELECT to_char(date_trunc('day', hour AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, operation,
              sum(calls) AS calls, ${credits} AS credits
       FROM ${table}
       WHERE account_id = $1
         AND hour >= (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $2 - 1)) AT TIME ZONE 'UTC'
         AND ($3::uuid IS NULL OR key_id = $3::uuid)
       GROUP BY 1, 2
       HAVING sum(calls) <> 0 OR ${credits} <> 0
       ORDER BY 1, 2`,
      [accountId, days, keyId],
    );
    return rows.map((r) => ({
      day: r.day,
      operation: r.operation,
      calls: Number(r.calls),
      credits: Number(r.credits),
    }));
  }

  /**
   * Calls and credits per hour or day (UTC), key and operation from `from` up to `to`, newest
   * first, with the key's name. Batch rows are left out: a batch job is listed with its charge
   * and refund (`LedgerRepository.batchCharges`).
   */
  async callsByKey(
    accountId: string,
    from: Date,
    to: Date,
    granularity: StatementGranularity,
  ): Promise<StatementCalls[]> {
    const rows = await this.db.query<
      {
        period: Date;
        operation: string;
        key_id: string | null;
        key_name: string | null;
        calls: string;
        credits: string;
      }[]
    >(
      `SELECT date_trunc($4, u.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period, u.operation,
              NULLIF(u.key_id, $5::uuid) AS key_id, k.name AS key_name,
              sum(u.calls) AS calls, sum(u.credits) AS credits
       FROM usage_hourly u
       LEFT JOIN api_keys k ON k.id = u.key_id AND k.account_id = u.account_id
       WHERE u.account_id = $1 AND u.hour >= $2 AND u.hour < $3 AND u.operation <> $6
       GROUP BY 1, 2, 3, 4
       HAVING sum(u.calls) <> 0 OR sum(u.credits) <> 0
       ORDER BY 1 DESC, 4, 2`,
      [accountId, from, to, granularity, CONSOLE_KEY_ID, BATCH_OPERATION],
    );
    return rows.map((r) => ({
      period: r.period.toISOString(),
      key_id: r.key_id,
      key_name: r.key_name,
      operation: r.operation,
      calls: Number(r.calls),
      credits: Number(r.credits),
    }));
  }

  /** Adds test calls to usage_test_hourly, every row in one statement. */
  async addTestCalls(rows: TestCalls[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO usage_test_hourly AS u (account_id, hour, operation, key_id, calls)
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::uuid[], $5::bigint[])
       ON CONFLICT (account_id, hour, operation, key_id) DO UPDATE SET calls = u.calls + EXCLUDED.calls`,
      [
        rows.map((r) => r.accountId),
        rows.map((r) => r.hour),
        rows.map((r) => r.operation),
        rows.map((r) => r.keyId),
        rows.map((r) => r.calls),
      ],
    );
  }
}
