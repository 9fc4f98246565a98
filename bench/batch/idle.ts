// Idle cost of the deployables: the share of one core each process uses over a window in which
// no job runs (timers, Kafka heartbeats and fetches, Bull's checks, periodic tasks).
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSnapshot, cpuUsed } from './cpu';

/** Fraction of one core (0.01 = 1 %) each labelled process used during `windowMs`. */
export async function idleCoreFraction(
  pids: Record<string, number>,
  windowMs: number,
): Promise<Record<string, number>> {
  const t0 = performance.now();
  const before = await cpuSnapshot(pids);
  await sleep(windowMs);
  const used = cpuUsed(before, await cpuSnapshot(pids));
  const seconds = (performance.now() - t0) / 1000;
  return Object.fromEntries([...used].map(([k, v]) => [k, v / seconds]));
}
