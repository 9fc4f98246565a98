// `npm run bench:api`: POST /v1/email/validate through the whole Verity API (key auth, token
// bucket, credits from a lease on real PostgreSQL, metrics, access log) against a bare Fastify server,
// both in child processes while this process runs the load generator (autocannon).
// `node dist/bench/api.bench.js --profile` instead profiles one saturated Verity run with
// --cpu-prof and prints where the time goes; `--allocations` samples what a call allocates.
import { readdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisionBenchDatabase } from './support/bench-database';
import {
  API_NODE_FLAGS,
  BODIES,
  RATE_LIMIT,
  WARMUP_S,
  verityEnv,
} from './support/api-bench.config';
import { startChildServer, type ChildServer } from './support/child-server';
import { withCpu } from './support/cpu-usage';
import { API_CATEGORIES, summariseCpuProfile } from './support/cpu-profile.summary';
import { formatLoad, runLoad, type LoadResult } from './support/load';
import { formatLockWaits, withLockWaits } from './support/lock-waits';
import { countLogLines } from './support/log-lines';
import { median } from './support/median';
import { runPacedLoad, type PacedLoadResult } from './support/paced-load';
import { formatStalls } from './support/stall-monitor';
import { tcpRetransmits } from './support/tcp-retransmits';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** The paced (open-loop) client's socket pool: enough that no request waits for a socket. */
const PACED_SOCKETS = Number(process.env.BENCH_PACED_SOCKETS ?? 64);
/** Alternated rounds of the saturated comparison (BENCH_ROUNDS). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
function verityLoad(
  server: ChildServer,
  label: string,
  durationS: number,
  overallRate?: number,
  connections = CONNECTIONS,
) {
  return runLoad({
    label,
    url: `http://127.0.0.1:${server.port}/v1/email/validate`,
    connections,
    durationS,
    headers: { 'x-api-key': server.apiKey ?? '' },
    bodies: BODIES,
    overallRate,
  });
}

function bareLoad(server: ChildServer, label: string, durationS: number, path = '/echo') {
  return runLoad({
    label,
    url: `http://127.0.0.1:${server.port}${path}`,
    connections: CONNECTIONS,
    durationS,
    bodies: BODIES,
  });
}

function check(r: LoadResult): LoadResult {
  console.log(formatLoad(r));
  if (r.non2xx + r.errors > 0)
    throw new Error(`${r.label}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
  return r;
}

/** A measured run's outcome and the server's CPU per answered request (null where unknown). */
type Measured<R extends LoadResult> = R & { serverCpuUsPerRequest: number | null };

/** Runs a measured load, prints it with the CPU each party used, and refuses non-2xx answers. */
async function measured<R extends LoadResult>(
  server: ChildServer,
  run: () => Promise<R>,
): Promise<Measured<R>> {
  const { result, cpu, serverCpuSeconds } = await withCpu(server.pid, run);
  check(result);
  const perRequest =
    serverCpuSeconds === null || result.requests === 0
      ? null
      : (serverCpuSeconds * 1e6) / result.requests;
  console.log(
    `  ${cpu}; server CPU per request ${perRequest === null ? 'n/a' : `${perRequest.toFixed(1)} µs`}`,
  );
  return { ...result, serverCpuUsPerRequest: perRequest };
}

/** One round of the saturated comparison: each server measured once, and Verity's statements. */
interface SaturatedRound {
  bare: Measured<LoadResult>;
  floor: Measured<LoadResult>;
  verity: Measured<LoadResult>;
  statements: number;
}

const FLOOR_PATH = '/v1/email/validate';

/**
 * The three servers saturated in turn, ROUNDS times, the order reversed every other round so a
 * drift of the machine falls on each alike. A single run of one server moves by 10-20 % on
 * these VMs (docs/benchmarks.md); the ratios are judged by their median over the rounds, each
 * round's pair measured minutes apart at most.
 */
async function saturatedRounds(
  bare: ChildServer,
  floor: ChildServer,
  verity: ChildServer,
): Promise<SaturatedRound[]> {
  await bareLoad(bare, 'warm-up', WARMUP_S);
  await bareLoad(floor, 'warm-up', WARMUP_S, FLOOR_PATH);
  await verityLoad(verity, 'warm-up', WARMUP_S);
  const rounds: SaturatedRound[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    console.log(`round ${i + 1} of ${ROUNDS}`);
    let statements = 0;
    const runs = {
      bare: () => measured(bare, () => bareLoad(bare, 'bare fastify echo', DURATION_S)),
      floor: () =>
        measured(floor, () => bareLoad(floor, 'framework floor', DURATION_S, FLOOR_PATH)),
      verity: async () => {
        const before = await verity.statements();
        const run = await measured(verity, () =>
          verityLoad(verity, 'verity POST /v1/email/validate (metrics on)', DURATION_S),
        );
        statements = (await verity.statements()) - before;
        return run;
      },
    };
    const order =
      i % 2 === 0 ? (['bare', 'floor', 'verity'] as const) : (['verity', 'floor', 'bare'] as const);
    const measuredRuns: Partial<Record<keyof typeof runs, Measured<LoadResult>>> = {};
    for (const name of order) measuredRuns[name] = await runs[name]();
    const { bare: b, floor: f, verity: v } = measuredRuns;
    if (!b || !f || !v) throw new Error('a saturated round missed a server');
    console.log(
      `  round ${i + 1}: verity/bare ${(v.reqPerSec / b.reqPerSec).toFixed(3)}, framework floor/bare ${(f.reqPerSec / b.reqPerSec).toFixed(3)}`,
    );
    rounds.push({ bare: b, floor: f, verity: v, statements });
  }
  return rounds;
}

/** The median server CPU per request of `runs`, null when /proc could not say for one of them. */
function medianCpu(runs: Measured<LoadResult>[]): number | null {
  const values = runs.map((r) => r.serverCpuUsPerRequest);
  return values.every((v): v is number => v !== null) ? median(values) : null;
}

function listed(values: number[]): string {
  return values.map((v) => v.toFixed(3)).join(', ');
}

/** Prints where a Verity call's CPU goes beyond the bare server's: the framework or Verity's work. */
function printCostSplit(bare: number | null, floor: number | null, verity: number | null): void {
  if (bare === null || floor === null || verity === null) return;
  const extra = verity - bare;
  console.log(
    `server CPU per request: bare ${bare.toFixed(1)} µs, framework floor ${floor.toFixed(1)} µs, verity ${verity.toFixed(1)} µs; ` +
      `of verity's ${extra.toFixed(1)} µs above bare, ${(floor - bare).toFixed(1)} µs is the framework floor (answer shape, hooks, request id, logger) ` +
      `and ${(verity - floor).toFixed(1)} µs Verity's own work (key, token bucket, credit lease, validation, metrics, access log)`,
  );
}

async function accessLogLines(path: string): Promise<string> {
  const { lines, bytes } = await countLogLines(path, '"request completed"');
  return `${lines} access-log lines, ${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * A paced (open-loop) run against `server` at `rate`, with the server's event loop watched for
 * stalls; prints what the client and the server each did to the tail.
 */
async function pacedRun(
  server: ChildServer,
  label: string,
  rate: number,
  path = '/v1/email/validate',
): Promise<Measured<PacedLoadResult>> {
  const { result: paced, report } = await server.stalls(() =>
    measured(server, () =>
      runPacedLoad({
        label,
        url: `http://127.0.0.1:${server.port}${path}`,
        rate,
        durationS: DURATION_S,
        maxSockets: PACED_SOCKETS,
        headers: server.apiKey === undefined ? {} : { 'x-api-key': server.apiKey },
        bodies: BODIES,
      }),
    ),
  );
  console.log(
    `  paced: latency from the scheduled send time (above, open loop, coordinated omission counted); ` +
      `from the actual send p99 ${paced.fromSendP99.toFixed(2)} ms max ${paced.fromSendMax.toFixed(2)} ms; ` +
      `client sent late by p99 ${paced.sendLagP99.toFixed(2)} ms max ${paced.sendLagMax.toFixed(2)} ms; ` +
      `waited for a socket of its pool (${PACED_SOCKETS}) p99 ${paced.poolWaitP99.toFixed(2)} ms max ${paced.poolWaitMax.toFixed(2)} ms; ` +
      `client event-loop delay p99 ${paced.clientLoopDelayP99.toFixed(2)} ms max ${paced.clientLoopDelayMax.toFixed(2)} ms`,
  );
  console.log(`  ${formatStalls(report)}`);
  return paced;
}

function header(): void {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `machine: ${cpus().length} cores (${model}), node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `note: the load generator (autocannon, this process) and the servers (child processes) share these ${cpus().length} cores; ` +
      `other work on the box shows in the load average above`,
  );
  console.log(
    `load: ${CONNECTIONS} connections, pipelining 1, ${WARMUP_S} s warm-up then ${DURATION_S} s per measurement, ${ROUNDS} alternated rounds of the saturated comparison, bodies rotate over ${BODIES.length} addresses`,
  );
}

async function profile(databaseUrl: string, logDir: string): Promise<void> {
  const profDir = join(logDir, 'cpuprofile');
  const server = await startChildServer({
    script: 'verity-server.child.js',
    env: verityEnv(databaseUrl, true),
    stdoutPath: join(logDir, 'verity-profile.log'),
    execArgv: [...API_NODE_FLAGS, '--cpu-prof', '--cpu-prof-dir', profDir],
  });
  try {
    await verityLoad(server, 'warm-up', WARMUP_S);
    await measured(server, () => verityLoad(server, 'verity (metrics on, profiled)', DURATION_S));
  } finally {
    await server.stop();
  }
  const [file] = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  // The warm-up, the measured run and the shutdown; boot is left out.
  console.log(
    await summariseCpuProfile(join(profDir, file), {
      categories: API_CATEGORIES,
      lastSeconds: WARMUP_S + DURATION_S + 1,
    }),
  );
  console.log(
    `\n(profile kept only for this run; copy it out of ${profDir} before the temp dir is removed if needed)`,
  );
}

/** Bytes a Verity call allocates, and where: one saturated run, sampled after the warm-up. */
async function allocations(databaseUrl: string, logDir: string): Promise<void> {
  const server = await startChildServer({
    script: 'verity-server.child.js',
    env: verityEnv(databaseUrl, true),
    stdoutPath: join(logDir, 'verity-allocations.log'),
    execArgv: API_NODE_FLAGS,
  });
  try {
    await verityLoad(server, 'warm-up', WARMUP_S);
    const { result, bytes, sites } = await server.allocations(() =>
      verityLoad(server, 'verity (metrics on, allocations sampled)', DURATION_S),
    );
    check(result);
    const perCall = (n: number) => (n / result.requests).toFixed(0);
    console.log(
      `allocated per call: ${perCall(bytes)} bytes (V8's sampling heap profiler, one sample per 1 KiB on average, ` +
        `objects collected again included; ${result.requests} calls)`,
    );
    console.log(
      'largest sites, bytes per call (the function on top of the stack when allocating):',
    );
    for (const { site, bytes: siteBytes } of sites.slice(0, 20))
      console.log(`${perCall(siteBytes).padStart(7)}  ${site}`);
  } finally {
    await server.stop();
  }
}

async function compare(databaseUrl: string, logDir: string): Promise<void> {
  const logOn = join(logDir, 'verity-metrics-on.log');
  const logOff = join(logDir, 'verity-metrics-off.log');
  const logOnFresh = join(logDir, 'verity-metrics-on-fresh.log');
  console.log(
    `verity: NODE_ENV=production, LOG_LEVEL=info (pino access log on, one line per request, written to the file ${logOn}), ` +
      `rate limit ${RATE_LIMIT}/s burst ${RATE_LIMIT} (token bucket still runs on every request, never refuses), ` +
      `account with 1e9 credits (every call pays 1 credit, from the instance's credit lease: docs/credits.md), DNS from a loopback server, ` +
      `node flags of start:api: ${API_NODE_FLAGS.join(' ') || 'none'}`,
  );
  console.log('bare: Fastify, no logger, POST /echo returns the parsed JSON body');
  console.log(
    "framework floor: Fastify with what a Verity call asks of the framework and none of Verity's work " +
      '(request id header, pino at warn, one onRequest and one preHandler setting the RateLimit headers, a handler returning a promise, ' +
      'the 200 answer serialised from the same schema; bench/support/floor-server.child.ts)',
  );
  const servers: ChildServer[] = [];
  try {
    // Started one after another: the first Verity instance applies the migrations.
    const bare = await startChildServer({
      script: 'bare-server.child.js',
      env: {},
      stdoutPath: '/dev/null',
    });
    servers.push(bare);
    const floor = await startChildServer({
      script: 'floor-server.child.js',
      env: {},
      stdoutPath: '/dev/null',
      execArgv: API_NODE_FLAGS,
    });
    servers.push(floor);
    const on = await startChildServer({
      script: 'verity-server.child.js',
      env: verityEnv(databaseUrl, true),
      stdoutPath: logOn,
      execArgv: API_NODE_FLAGS,
    });
    servers.push(on);
    const off = await startChildServer({
      script: 'verity-server.child.js',
      env: verityEnv(databaseUrl, false),
      stdoutPath: logOff,
      execArgv: API_NODE_FLAGS,
    });
    servers.push(off);

    console.log('\n# saturated');
    const rounds = await saturatedRounds(bare, floor, on);
    const ratios = rounds.map((r) => r.verity.reqPerSec / r.bare.reqPerSec);
    const ratio = median(ratios);
    console.log(
      `ratio verity/bare: ${ratio.toFixed(3)}, the median of ${rounds.length} alternated rounds (${listed(ratios)}) (target >= 0.5) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `ratio framework floor/bare: ${median(rounds.map((r) => r.floor.reqPerSec / r.bare.reqPerSec)).toFixed(3)}; ` +
        `verity/framework floor: ${median(rounds.map((r) => r.verity.reqPerSec / r.floor.reqPerSec)).toFixed(3)} (medians of the rounds)`,
    );
    printCostSplit(
      medianCpu(rounds.map((r) => r.bare)),
      medianCpu(rounds.map((r) => r.floor)),
      medianCpu(rounds.map((r) => r.verity)),
    );
    const statements = rounds.reduce((sum, r) => sum + r.statements, 0);
    const calls = rounds.reduce((sum, r) => sum + r.verity.requests, 0);
    const perThousand = (statements / calls) * 1000;
    console.log(
      `database statements per 1,000 successful calls: ${perThousand.toFixed(2)} (${statements} statements for ${calls} calls over the rounds, counted by a wrapper around pg's Client.query in the server) (target <= 5) ${perThousand <= 5 ? 'MET' : 'NOT MET'}`,
    );

    console.log('\n# verity at half its saturating rate');
    const halfRate = Math.round(median(rounds.map((r) => r.verity.reqPerSec)) / 2);
    const half = await measured(on, () =>
      verityLoad(on, 'autocannon overallRate (bursty, see note)', DURATION_S, halfRate),
    );
    const retransmitsBefore = await tcpRetransmits();
    const paced = await pacedRun(on, 'paced open loop (even spacing)', halfRate);
    const retransmitsAfter = await tcpRetransmits();
    if (retransmitsBefore !== null && retransmitsAfter !== null)
      console.log(
        `  TCP segments retransmitted by the kernel during the paced run: ${retransmitsAfter - retransmitsBefore} (each waits the 200 ms minimum RTO on loopback)`,
      );
    console.log(
      'note: autocannon overallRate lets each connection send its per-second quota back to back, then idle until the next second; ' +
        `the paced run spreads the same rate evenly (a lean raw-socket HTTP/1.1 client, ${PACED_SOCKETS} keep-alive connections so that no request waits in the client for a free one)`,
    );
    const verdict = (r: LoadResult) => `${r.p99.toFixed(2)} ms ${r.p99 <= 10 ? 'MET' : 'NOT MET'}`;
    // The machine's own tail at that rate: the framework floor and the bare server, paced the
    // same way (the floor answers on Verity's path).
    const floorPaced = await pacedRun(floor, 'framework floor, paced at the same rate', halfRate);
    const barePaced = await pacedRun(
      bare,
      'bare fastify echo, paced at the same rate',
      halfRate,
      '/echo',
    );
    console.log(
      `p99 at half load (target <= 10 ms): paced ${verdict(paced)}; autocannon overallRate ${verdict(half)}; ` +
        `at the same paced rate the framework floor ${floorPaced.p99.toFixed(2)} ms and the bare server ${barePaced.p99.toFixed(2)} ms`,
    );

    console.log(
      '\n# metrics off vs on (two fresh instances, METRICS_ENABLED=false and true; saturated; in the order off, on, on, off to cancel drift)',
    );
    // A fresh metrics-on instance: the first one has served every run above, so comparing it
    // with a fresh metrics-off instance would also compare their histories.
    const onFresh = await startChildServer({
      script: 'verity-server.child.js',
      env: verityEnv(databaseUrl, true),
      stdoutPath: logOnFresh,
      execArgv: API_NODE_FLAGS,
    });
    servers.push(onFresh);
    await verityLoad(off, 'warm-up', WARMUP_S);
    await verityLoad(onFresh, 'warm-up', WARMUP_S);
    const offRuns = [
      await measured(off, () => verityLoad(off, 'verity (metrics off) run 1', DURATION_S)),
    ];
    const onRuns = [
      await measured(onFresh, () => verityLoad(onFresh, 'verity (metrics on) run 1', DURATION_S)),
      await measured(onFresh, () => verityLoad(onFresh, 'verity (metrics on) run 2', DURATION_S)),
    ];
    offRuns.push(
      await measured(off, () => verityLoad(off, 'verity (metrics off) run 2', DURATION_S)),
    );
    const mean = (rs: LoadResult[], f: (r: LoadResult) => number) =>
      rs.reduce((a, r) => a + f(r), 0) / rs.length;
    const meanCpu = (rs: Measured<LoadResult>[]): number | null => {
      const cpu = rs.map((r) => r.serverCpuUsPerRequest);
      return cpu.every((c) => c !== null) ? cpu.reduce((a, c) => a + c, 0) / cpu.length : null;
    };
    const onRps = mean(onRuns, (r) => r.reqPerSec);
    const offRps = mean(offRuns, (r) => r.reqPerSec);
    const cost = ((offRps - onRps) / offRps) * 100;
    console.log(
      `metrics on ${Math.round(onRps)} req/s (p50 ${mean(onRuns, (r) => r.p50).toFixed(2)} ms, p99 ${mean(onRuns, (r) => r.p99).toFixed(2)} ms) vs ` +
        `off ${Math.round(offRps)} req/s (p50 ${mean(offRuns, (r) => r.p50).toFixed(2)} ms, p99 ${mean(offRuns, (r) => r.p99).toFixed(2)} ms), means of 2 runs each`,
    );
    // Run-to-run spread of one configuration: a difference smaller than that is noise.
    const spread = (rs: LoadResult[]) =>
      (100 * Math.abs(rs[0].reqPerSec - rs[1].reqPerSec)) /
      Math.max(rs[0].reqPerSec, rs[1].reqPerSec);
    const noise = Math.max(spread(onRuns), spread(offRuns));
    // The cost is judged by the server's CPU per request (from /proc): calls per second on two
    // shared cores also move with the load generator's share and the kernel's wake-ups (docs/benchmarks.md).
    const cpuOn = meanCpu(onRuns);
    const cpuOff = meanCpu(offRuns);
    const cpuCost = cpuOn !== null && cpuOff !== null ? ((cpuOn - cpuOff) / cpuOff) * 100 : null;
    const judged = cpuCost ?? cost;
    console.log(
      `throughput cost of metrics: ${cost.toFixed(1)}%${cpuCost === null ? ` (target < 5%) ${cost < 5 ? 'MET' : 'NOT MET'}` : ''}; ` +
        `run-to-run spread of one configuration ${noise.toFixed(1)}%` +
        (Math.abs(cost) < noise ? ' (the difference is within the noise)' : ''),
    );
    if (cpuOn !== null && cpuOff !== null)
      console.log(
        `server CPU cost of metrics: ${judged.toFixed(1)}% (${cpuOn.toFixed(1)} µs per request on vs ${cpuOff.toFixed(1)} µs off, means of 2 runs each) ` +
          `(target < 5%) ${judged < 5 ? 'MET' : 'NOT MET'}`,
      );
    console.log(
      '\n# one account, two API processes vs one (same load generator, same total connections, one account)',
    );
    const one = await withLockWaits(databaseUrl, () =>
      measured(on, () => verityLoad(on, '1 process', DURATION_S)),
    );
    console.log(`  ${formatLockWaits(one.waits)}`);
    const second = await startChildServer({
      script: 'verity-server.child.js',
      env: { ...verityEnv(databaseUrl, true), BENCH_API_KEY: on.apiKey ?? '' },
      stdoutPath: '/dev/null',
      execArgv: API_NODE_FLAGS,
    });
    servers.push(second);
    await verityLoad(second, 'warm-up', WARMUP_S);
    const split = Math.max(1, Math.floor(CONNECTIONS / 2));
    const two = await withLockWaits(databaseUrl, () =>
      Promise.all([
        verityLoad(on, '2 processes: first', DURATION_S, undefined, split),
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
    console.log(
      `\naccess logs: metrics-on instance ${await accessLogLines(logOn)}; metrics-off instance ${await accessLogLines(logOff)}; fresh metrics-on instance ${await accessLogLines(logOnFresh)}`,
    );
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}

async function main(): Promise<void> {
  header();
  const db = await provisionBenchDatabase();
  console.log(`database: ${db.description}`);
  const logDir = await mkdtemp(join(tmpdir(), 'verity-bench-api-'));
  try {
    if (process.argv.includes('--profile')) await profile(db.url, logDir);
    else if (process.argv.includes('--allocations')) await allocations(db.url, logDir);
    else await compare(db.url, logDir);
  } finally {
    await db.drop();
    if (!process.env.BENCH_KEEP_LOGS) await rm(logDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
