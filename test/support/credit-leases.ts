import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';

/**
 * Waits until every credit lease of the account is settled and closed: an idle lease gives
 * its credits back after CREDIT_LEASE_IDLE_MS, an expired one is recovered by a sweep. Until
 * then the ledger holds the reservation, not the calls (docs/credits.md).
 */
export async function leasesAtRest(dataSource: DataSource, accountId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const [row] = await dataSource.query(
      'SELECT count(*)::int AS open FROM credit_leases WHERE account_id = $1 AND closed_at IS NULL',
      [accountId],
    );
    if (row.open === 0) return;
    await sleep(50);
  }
  throw new Error(`the credit leases of account ${accountId} never closed`);
}
