// `npm run bench:soak`: does the embedded default (`verity start`, one process: memory row bus,
// memory job queue, local blob store) give memory back? Runs SOAK_JOBS back-to-back batch jobs
// of SOAK_ROWS IP rows each, samples the process's RSS every second, and prints start, after
// the first job, peak and end RSS; the end should stay within 20 % of the RSS after the first
// job (the baseline measured in the same run). Also prints rows/s of the first and last job.
//
// "End" is the RSS after SOAK_IDLE_S (default 30) seconds without work: V8 runs its memory
// reducer (a full GC) only once allocation stops, so RSS right after a job mostly measures
// garbage not yet collected, which the per-job lines show rising and falling.
//
// Environment: SOAK_JOBS (default 50), SOAK_ROWS (default 100000), SOAK_IDLE_S (default 30),
// BENCH_KEEP=1 (keep the work dir).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, ADMIN_TOKEN } from '@verity/testing';
import { createAccount, runJob, type JobTiming } from './batch/client';
import { ipRow, writeRows } from './batch/inputs';
import { readRss, startProcess } from './batch/processes';

const JOBS = Number(process.env.SOAK_JOBS ?? 50);
const ROWS = Number(process.env.SOAK_ROWS ?? 100_000);
const IDLE_S = Number(process.env.SOAK_IDLE_S ?? 30);

const mib = (n: number) => `${n.toFixed(0)} MiB`;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'verity-bench-soak-'));
  const home = join(work, 'home');
  await mkdir(home, { recursive: true });
  const db = await createTestDatabase();
  const input = join(work, 'ips.csv');
  const bytes = await writeRows(input, ROWS, ipRow);
  const proc = await startProcess(
    'verity',
    'verity-start',
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      VERITY_HOME: home,
      DATABASE_URL: db.url,
      ADMIN_TOKEN,
      IP_DATA_POLL_MS: '0',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      ROW_BUS: 'memory',
      JOB_QUEUE: 'memory',
      BLOB_STORE: 'local',
    },
    work,
  );
  const samples: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push((await readRss(proc.pid)).rss);
      await sleep(1_000);
    }
  })();
  try {
    const base = `http://127.0.0.1:${proc.port}`;
    const key = await createAccount(base, ADMIN_TOKEN, JOBS * ROWS + 1);
    const start = (await readRss(proc.pid)).rss;
    console.log(
      `soak: ${JOBS} jobs × ${ROWS} ip rows (${(bytes / 1e6).toFixed(1)} MB each), embedded default`,
    );
    console.log(`RSS at start: ${mib(start)}`);
    let afterFirst = 0;
    const timings: JobTiming[] = [];
    for (let i = 0; i < JOBS; i++) {
      const timing = await runJob(base, key, 'ip', input, 30 * 60_000);
      timings.push(timing);
      const rss = (await readRss(proc.pid)).rss;
      if (i === 0) afterFirst = rss;
      console.log(
        `job ${String(i + 1).padStart(2)}: ${(ROWS / (timing.totalMs / 1000)).toFixed(0)} rows/s, RSS ${mib(rss)}`,
      );
    }
    await sleep(IDLE_S * 1_000); // idle: what the process keeps once the work is over
    const end = (await readRss(proc.pid)).rss;
    const peak = Math.max(...samples, end);
    const rate = (t: JobTiming) => ROWS / (t.totalMs / 1000);
    console.log('');
    console.log(
      `RSS start ${mib(start)}, after job 1 ${mib(afterFirst)}, peak ${mib(peak)}, end ${mib(end)} after ${IDLE_S} s idle (${samples.length} samples, 1/s)`,
    );
    console.log(`end / after job 1: ${(end / afterFirst).toFixed(2)} (target ≤ 1.20)`);
    console.log(
      `throughput: job 1 ${rate(timings[0]).toFixed(0)} rows/s, job ${JOBS} ${rate(timings[JOBS - 1]).toFixed(0)} rows/s (ratio ${(rate(timings[JOBS - 1]) / rate(timings[0])).toFixed(2)})`,
    );
  } finally {
    sampling = false;
    await sampler;
    await proc.stop();
    await db.drop();
    if (process.env.BENCH_KEEP !== '1') await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
