import { cpus } from 'node:os';
import type { ChildServer } from '../support/child-server';
import { WARMUP_S } from '../support/api-bench.config';
import { formatLockWaits, withLockWaits } from '../support/lock-waits';
import { check, CONNECTIONS, DURATION_S, measured, verityLoad } from './measure';

/**
 * One account served by one process, then by two (`second` holds the same key), the same
 * connections split over both, each under a sampler of PostgreSQL's lock waits.
 */
export async function twoProcesses(
  databaseUrl: string,
  first: ChildServer,
  second: ChildServer,
): Promise<void> {
  const one = await withLockWaits(databaseUrl, () =>
    measured(first, () => verityLoad(first, '1 process', DURATION_S)),
  );
  console.log(`  ${formatLockWaits(one.waits)}`);
  await verityLoad(second, 'warm-up', WARMUP_S);
  const split = Math.max(1, Math.floor(CONNECTIONS / 2));
  const two = await withLockWaits(databaseUrl, () =>
    Promise.all([
      verityLoad(first, '2 processes: first', DURATION_S, undefined, split),
      verityLoad(second, '2 processes: second', DURATION_S, undefined, CONNECTIONS - split),
    ]),
  );
  for (const r of two.result) check(r);
  console.log(`  ${formatLockWaits(two.waits)}`);
  const twoRps = two.result[0].reqPerSec + two.result[1].reqPerSec;
  const scale = twoRps / one.result.reqPerSec;
  console.log(
    `two processes ${Math.round(twoRps)} req/s vs one ${Math.round(one.result.reqPerSec)} req/s: ${scale.toFixed(2)}x (target: no drop, >= 1.00 within noise) ${scale >= 0.95 ? 'MET' : 'NOT MET'}; ` +
      `both processes share the same ${cpus().length} cores with the load generator, so the CPU share is the same`,
  );
}
