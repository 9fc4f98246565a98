import { Client } from 'pg';

const INTERVAL_MS = 5;

/** What a sampler saw while a run went on. */
export interface LockWaits {
  samples: number;
  /** Sum over samples of the sessions waiting on a lock, times the sampling interval. */
  waitMs: number;
  /** Most sessions seen waiting at once. */
  peak: number;
}

/**
 * Runs `work` while sampling pg_stat_activity of the database every 5 ms for sessions waiting
 * on a lock (wait_event_type = 'Lock': the account row's lock, among others). Sampling sees
 * waits of 5 ms and longer reliably, shorter ones by chance: an estimate, not a sum.
 */
export async function withLockWaits<T>(
  databaseUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; waits: LockWaits }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const waits: LockWaits = { samples: 0, waitMs: 0, peak: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      waits.samples++;
      waits.waitMs += rows[0].n * INTERVAL_MS;
      waits.peak = Math.max(waits.peak, rows[0].n);
      await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    }
  })();
  try {
    return { result: await work(), waits };
  } finally {
    running = false;
    await sampling;
    await client.end();
  }
}

export function formatLockWaits(w: LockWaits): string {
  return `row-lock wait ≈ ${w.waitMs} ms (sessions waiting on a lock, sampled every ${INTERVAL_MS} ms: ${w.samples} samples, peak ${w.peak} at once)`;
}
