// `npm run bench:api`: POST /v1/email/validate (BENCH_ROUTE=verify: POST /v1/verify, the
// account's history included) through the whole Verity API (key auth, token
// bucket, credits from a lease on real PostgreSQL, metrics, access log) against a bare Fastify
// server and a framework floor, all in child processes while this process runs the load
// generator (autocannon). The sections live in bench/api/: saturated rounds, half load,
// metrics cost, two processes. `--profile`, `--perf` and `--allocations` run a diagnostic
// instead (bench/api/diagnostics.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { allocations, perfSplit, profile } from './api/diagnostics';
import { halfLoad } from './api/half-load';
import { CONNECTIONS, DURATION_S } from './api/measure';
import { metricsCost } from './api/metrics-cost';
import { reportSaturated, ROUNDS, saturatedRounds } from './api/saturated';
import { twoProcesses } from './api/two-processes';
import { provisionBenchDatabase } from './support/bench-database';
import {
  API_NODE_FLAGS,
  BODIES,
  RATE_LIMIT,
  VERITY_PATH,
  WARMUP_S,
  verityEnv,
} from './support/api-bench.config';
import { startChildServer, type ChildServer } from './support/child-server';
import { countLogLines } from './support/log-lines';

async function accessLogLines(path: string): Promise<string> {
  const { lines, bytes } = await countLogLines(path, '"request completed"');
  return `${lines} access-log lines, ${(bytes / 1e6).toFixed(1)} MB`;
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
    `load: ${CONNECTIONS} connections, pipelining 1, ${WARMUP_S} s warm-up then ${DURATION_S} s per measurement, ${ROUNDS} alternated rounds of the saturated comparison, POST ${VERITY_PATH} with bodies rotating over ${BODIES.length} inputs`,
  );
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
  const start = async (...args: Parameters<typeof startChildServer>): Promise<ChildServer> => {
    const server = await startChildServer(...args);
    servers.push(server);
    return server;
  };
  const verity = (stdoutPath: string, metrics: boolean, env: Record<string, string> = {}) =>
    start({
      script: 'verity-server.child.js',
      env: { ...verityEnv(databaseUrl, metrics), ...env },
      stdoutPath,
      execArgv: API_NODE_FLAGS,
    });
  try {
    // Started one after another: the first Verity instance applies the migrations.
    const bare = await start({ script: 'bare-server.child.js', env: {}, stdoutPath: '/dev/null' });
    const floor = await start({
      script: 'floor-server.child.js',
      env: {},
      stdoutPath: '/dev/null',
      execArgv: API_NODE_FLAGS,
    });
    const on = await verity(logOn, true);
    const off = await verity(logOff, false);

    console.log('\n# saturated');
    const rounds = await saturatedRounds(bare, floor, on);
    reportSaturated(rounds);

    console.log('\n# verity at half its saturating rate');
    await halfLoad({ verity: on, floor, bare }, rounds);

    console.log(
      '\n# metrics off vs on (two fresh instances, METRICS_ENABLED=false and true; saturated; in the order off, on, on, off to cancel drift)',
    );
    // A fresh metrics-on instance: the first one has served every run above, so comparing it
    // with a fresh metrics-off instance would also compare their histories.
    await metricsCost(off, await verity(logOnFresh, true));

    console.log(
      '\n# one account, two API processes vs one (same load generator, same total connections, one account)',
    );
    const second = await verity('/dev/null', true, { BENCH_API_KEY: on.apiKey ?? '' });
    await twoProcesses(databaseUrl, on, second);

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
    else if (process.argv.includes('--perf')) await perfSplit(db.url, logDir);
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
