// `npm run bench:memory`: is the embedded default's memory bounded whatever the uploads? Starts
// `verity start` (memory row bus, memory queue, local blobs) twice in this run: once with the
// in-process bus unbounded (ROW_BUS_MEMORY_MAX_BYTES of 64 GiB: the baseline, every chunk of
// every job held until scored) and once with the default bound (64 MiB, the splitter waits for
// the scorers). Each time MEM_ACCOUNTS accounts upload MEM_JOBS wide-row files of MEM_MB MB at
// once (an IP column beside a ~2 KB note, `column=ip`); RSS is sampled every 250 ms. Prints, per
// run, RSS at start, peak, when the last job ended and after MEM_IDLE_S idle seconds, the
// highest bus backlog /metrics showed, and the ratio of the peaks against the baseline.
//
// Environment: MEM_ACCOUNTS (3), MEM_JOBS (2), MEM_MB (50), MEM_IDLE_S (30: V8 gives memory back once allocation has stopped a while), BENCH_KEEP=1.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_TOKEN, createTestDatabase } from '@verity/testing';
import { createAccount, runJob } from './batch/client';
import { ipRow, writeRows } from './batch/inputs';
import { readRss, startProcess } from './batch/processes';

const ACCOUNTS = Number(process.env.MEM_ACCOUNTS ?? 3);
const JOBS = Number(process.env.MEM_JOBS ?? 2);
const MB = Number(process.env.MEM_MB ?? 50);
const IDLE_S = Number(process.env.MEM_IDLE_S ?? 30);
const NOTE = 'lorem ipsum dolor sit amet '.repeat(75);

const mib = (n: number) => `${n.toFixed(0)} MiB`;

interface RunFigures {
  start: number;
  peak: number;
  ended: number;
  idle: number;
  /** The highest of each /metrics figure over the run. */
  most: Scrape;
  /** /metrics after the idle seconds. */
  after: Scrape;
  seconds: number;
}

/** What one /metrics scrape shows of memory, in MiB: the largest bus backlog, V8's heap, external. */
interface Scrape {
  backlog: number;
  heap: number;
  external: number;
}

async function scrape(base: string): Promise<Scrape> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const figures = { backlog: 0, heap: 0, external: 0 };
  for (const line of text.split('\n')) {
    const value = Number(line.split(' ').at(-1)) / 1024 / 1024;
    if (line.startsWith('verity_row_bus_backlog_bytes{'))
      figures.backlog = Math.max(figures.backlog, value);
    else if (line.startsWith('verity_nodejs_heap_size_total_bytes ')) figures.heap = value;
    else if (line.startsWith('verity_nodejs_external_memory_bytes ')) figures.external = value;
  }
  return figures;
}

async function run(
  label: string,
  maxBacklog: string,
  input: string,
  rows: number,
  work: string,
): Promise<RunFigures> {
  const home = join(work, `home-${label}`);
  await mkdir(home, { recursive: true });
  const db = await createTestDatabase();
  const proc = await startProcess(
    'verity',
    `verity-${label}`,
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      VERITY_HOME: home,
      DATABASE_URL: db.url,
      ADMIN_TOKEN,
      IP_DATA_POLL_MS: '0',
      DATA_REFRESH_INTERVAL: 'off',
      ROW_BUS_MEMORY_MAX_BYTES: maxBacklog,
    },
    work,
  );
  const base = `http://127.0.0.1:${proc.port}`;
  let peak = 0;
  const most: Scrape = { backlog: 0, heap: 0, external: 0 };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await readRss(proc.pid)).rss);
      const now = await scrape(base).catch(() => most);
      for (const k of ['backlog', 'heap', 'external'] as const) most[k] = Math.max(most[k], now[k]);
      await sleep(250);
    }
  })();
  try {
    const keys = await Promise.all(
      Array.from({ length: ACCOUNTS }, () => createAccount(base, ADMIN_TOKEN, rows * JOBS + 1)),
    );
    await sleep(2_000);
    const start = (await readRss(proc.pid)).rss;
    const t0 = performance.now();
    await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: JOBS }, () =>
          runJob(base, key, 'ip', input, 30 * 60_000, { column: 'ip' }),
        ),
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    const ended = (await readRss(proc.pid)).rss;
    await sleep(IDLE_S * 1_000);
    const idle = (await readRss(proc.pid)).rss;
    const after = await scrape(base);
    return { start, peak: Math.max(peak, ended), ended, idle, most, after, seconds };
  } finally {
    sampling = false;
    await sampler;
    await proc.stop();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'verity-bench-memory-'));
  const input = join(work, 'wide.csv');
  const rows = Math.floor((MB * 1e6) / (NOTE.length + 20));
  const bytes = await writeRows(input, rows + 1, (i) =>
    i === 0 ? 'ip,note' : `${ipRow(i - 1)},${NOTE}${i}`,
  );
  console.log(
    `memory: ${ACCOUNTS} accounts × ${JOBS} concurrent jobs of ${rows} wide rows (${(bytes / 1e6).toFixed(1)} MB each, column=ip), embedded default`,
  );
  try {
    const runs: [string, RunFigures][] = [];
    for (const [label, max] of [
      ['unbounded bus (baseline)', String(64 * 1024 ** 3)],
      ['bounded bus (64 MiB, default)', String(64 * 1024 ** 2)],
    ] as const) {
      const figures = await run(label.split(' ')[0], max, input, rows, work);
      runs.push([label, figures]);
      const { most, after } = figures;
      console.log(
        `${label}: RSS start ${mib(figures.start)}, peak ${mib(figures.peak)}, when the jobs ended ${mib(figures.ended)}, after ${IDLE_S} s idle ${mib(figures.idle)}; ${figures.seconds.toFixed(0)} s for the jobs`,
      );
      console.log(
        `  highest: bus backlog ${mib(most.backlog)}, V8 heap ${mib(most.heap)}, external ${mib(most.external)}; after the idle seconds: heap ${mib(after.heap)}, external ${mib(after.external)}`,
      );
    }
    const [[, baseline], [, bounded]] = runs;
    console.log(
      `peak RSS bounded / baseline: ${(bounded.peak / baseline.peak).toFixed(2)}; growth over start ${(bounded.peak - bounded.start).toFixed(0)} / ${(baseline.peak - baseline.start).toFixed(0)} MiB; jobs' time ${(bounded.seconds / baseline.seconds).toFixed(2)}×`,
    );
  } finally {
    if (process.env.BENCH_KEEP !== '1') await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
