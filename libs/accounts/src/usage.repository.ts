import { Injectable } from '@nestjs/common';
import type { UsageDay } from '@verity/contracts';
import { DataSource } from 'typeorm';

/**
 * Reads usage_hourly, the one place usage is read from. Its rows are written with the ledger
 * rows they count (LedgerRepository, LeaseRepository), so a 30-day chart reads at most 720
 * hours × operations × keys rows and never scans the ledger.
 */
@Injectable()
export class UsageRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * The last `days` UTC days (today included), per day and operation; `keyId` filters. A call
   * refunded in a later hour than it was charged nets to zero: such a day has no usage of it.
   */
  async daily(accountId: string, days: number, keyId: string | null = null): Promise<UsageDay[]> {
    const rows = await this.db.query<
      { day: string; operation: string; calls: string; credits: string }[]
    >(
      `SELECT to_char(date_trunc('day', hour AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, operation,
              sum(calls) AS calls, sum(credits) AS credits
       FROM usage_hourly
       WHERE account_id = $1
         AND hour >= (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $2 - 1)) AT TIME ZONE 'UTC'
         AND ($3::uuid IS NULL OR key_id = $3::uuid)
       GROUP BY 1, 2
       HAVING sum(calls) <> 0 OR sum(credits) <> 0
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
}
