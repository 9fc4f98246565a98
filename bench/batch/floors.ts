// The engines' bare throughput on the same input files as the batch jobs, measured in-process.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '@verity/config';
import { buildEmailEngine, buildIpEngine } from '@verity/integrations';

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter((r) => r !== '');
}

/** rows/s of `fn` over `rows`: one warm-up pass, then the best of `rounds` timed passes. */
function bestRate(rows: string[], rounds: number, fn: (row: string) => unknown): number {
  for (const r of rows.slice(0, 50_000)) fn(r);
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const t0 = performance.now();
    for (const r of rows) fn(r);
    best = Math.max(best, rows.length / ((performance.now() - t0) / 1000));
  }
  return best;
}

/** Email offline engine (syntax, lists, typo model; no DNS) over the email file, 1 core. */
export async function emailOfflineFloor(path: string, dnsServers: string): Promise<number> {
  const rows = await lines(path);
  const built = buildEmailEngine(loadConfig({ DNS_SERVERS: dnsServers }));
  try {
    return bestRate(rows, 2, (r) => built.engine.analyzeOffline(r));
  } finally {
    await built.close();
  }
}

/** IP engine lookup loop over the IP file (junk rows throw and are counted), 1 core. */
export async function ipLookupFloor(path: string, home: string): Promise<number> {
  const rows = await lines(path);
  const handle = await buildIpEngine(loadConfig({ VERITY_HOME: home, IP_DATA_POLL_MS: '0' }));
  try {
    return bestRate(rows, 2, (r) => {
      try {
        return handle.engine.lookup(r);
      } catch {
        return null;
      }
    });
  } finally {
    await handle.close();
  }
}

interface WorkerReply {
  ready?: boolean;
  rows?: number;
  ms?: number;
}

/**
 * libphonenumber-js/max parse + isValid + getType over the phone file split across `workers`
 * threads started together: the n-core floor (rows / slowest thread's time).
 */
export async function phoneLibFloor(path: string, workers = 2): Promise<number> {
  const threads = Array.from(
    { length: workers },
    (_, worker) =>
      new Worker(join(__dirname, 'phone-floor.worker.js'), {
        workerData: { path, worker, workers },
      }),
  );
  try {
    const next = (w: Worker) =>
      new Promise<WorkerReply>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      });
    await Promise.all(threads.map(next));
    const results = threads.map(next);
    for (const w of threads) w.postMessage('go');
    const done = await Promise.all(results);
    const rows = done.reduce((n, d) => n + (d.rows ?? 0), 0);
    const ms = Math.max(...done.map((d) => d.ms ?? 0));
    return rows / (ms / 1000);
  } finally {
    await Promise.all(threads.map((w) => w.terminate()));
  }
}
