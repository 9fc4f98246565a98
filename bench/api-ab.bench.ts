// `npm run bench:api:ab -- --baseline <checkout>`: the server CPU per POST /v1/email/validate
// (BENCH_ROUTE=verify: POST /v1/verify) of this build against another build of Verity, in
// alternated runs, and the database statements per 1,000 calls. `--paced-rate N` adds each
// run's p99 latency at N requests a second, paced evenly (open loop). <checkout> is a directory
// with `npm install` and `npm run build` done, e.g. a git worktree of main. One bench:api run
// moves by ±10 %, more than most single changes to the hot path are worth; paired, alternated
// runs judge a change of a microsecond or two, and their range says how far to trust it.
//
// Each run starts a fresh server process of one build (JIT and heap start over, as in a real
// restart), warms it up, then loads it saturated and reads its CPU from /proc. The builds take
// turns, the order swapping every round, each on its own fresh database.
//
// `--baseline-flags '<node flags>'` runs the baseline with other node flags than the API's
// (package.json start:api); with `--baseline .` it compares the flags on the same build.
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import {
  API_NODE_FLAGS,
  BODIES,
  VERITY_PATH,
  WARMUP_S,
  verityEnv,
} from './support/api-bench.config';
import { option } from './support/argv';
import { startChildServer } from './support/child-server';
import { median } from './support/median';
import { processCpuTimes } from './support/cpu-usage';
import { runLoad } from './support/load';
import { runPacedLoad } from './support/paced-load';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Build {
  name: string;
  /** The build's compiled Verity server child. */
  script: string;
  /** The server's node flags. */
  execArgv: string[];
  database: TestDatabase;
  runs: Run[];
}

interface Run {
  reqPerSec: number;
  /** Server CPU per answered request, µs: user, system and both. */
  user: number;
  system: number;
  total: number;
  /** Database statements per 1,000 answered calls of the saturated run. */
  statementsPerThousand: number;
  /** p99 at the paced rate, from the scheduled send (ms); null without --paced-rate. */
  pacedP99: number | null;
}

function serverScript(checkout: string): string {
  const script = join(checkout, 'dist', 'bench', 'support', 'verity-server.child.js');
  if (!existsSync(script)) {
    throw new Error(`${script} is missing: run npm install and npm run build in ${checkout}`);
  }
  return script;
}

/** Keep-alive connections of the paced client: enough that no request waits for a socket. */
const PACED_SOCKETS = 64;

async function measure(build: Build, pacedRate: number | null): Promise<Run> {
  const server = await startChildServer({
    script: build.script,
    env: verityEnv(build.database.url, true),
    stdoutPath: '/dev/null',
    execArgv: build.execArgv,
  });
  try {
    const load = (durationS: number) =>
      runLoad({
        label: build.name,
        url: `http://127.0.0.1:${server.port}${VERITY_PATH}`,
        connections: CONNECTIONS,
        durationS,
        headers: { 'x-api-key': server.apiKey ?? '' },
        bodies: BODIES,
      });
    await load(WARMUP_S);
    const statementsBefore = await server.statements();
    const before = processCpuTimes(server.pid);
    const result = await load(DURATION_S);
    const after = processCpuTimes(server.pid);
    const statements = (await server.statements()) - statementsBefore;
    if (!before || !after) throw new Error('the server CPU cannot be read from /proc');
    if (result.non2xx + result.errors > 0) {
      throw new Error(`${build.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    const perRequest = (seconds: number) => (seconds * 1e6) / result.requests;
    const user = perRequest(after.user - before.user);
    const system = perRequest(after.system - before.system);
    const paced =
      pacedRate === null
        ? null
        : await runPacedLoad({
            label: `${build.name} paced`,
            url: `http://127.0.0.1:${server.port}${VERITY_PATH}`,
            rate: pacedRate,
            durationS: DURATION_S,
            maxSockets: PACED_SOCKETS,
            headers: { 'x-api-key': server.apiKey ?? '' },
            bodies: BODIES,
          });
    if (paced && paced.non2xx + paced.errors > 0)
      throw new Error(
        `${build.name} paced: ${paced.non2xx} non-2xx answers, ${paced.errors} errors`,
      );
    return {
      reqPerSec: result.reqPerSec,
      user,
      system,
      total: user + system,
      statementsPerThousand: (statements / result.requests) * 1000,
      pacedP99: paced?.p99 ?? null,
    };
  } finally {
    await server.stop();
  }
}

function summary(build: Build): string {
  const us = (f: (r: Run) => number) => median(build.runs.map(f)).toFixed(1);
  const p99s = build.runs.map((r) => r.pacedP99).filter((p): p is number => p !== null);
  return (
    `${build.name.padEnd(12)} median ${us((r) => r.total)} µs/request (user ${us((r) => r.user)}, system ${us((r) => r.system)}), ` +
    `${Math.round(median(build.runs.map((r) => r.reqPerSec)))} req/s, ` +
    `${median(build.runs.map((r) => r.statementsPerThousand)).toFixed(2)} statements per 1,000 calls` +
    (p99s.length > 0 ? `, paced p99 ${median(p99s).toFixed(2)} ms` : '')
  );
}

function flagsText(flags: readonly string[]): string {
  return flags.join(' ') || 'none';
}

async function main(): Promise<void> {
  const checkout = option('--baseline');
  if (!checkout)
    throw new Error(
      "usage: npm run bench:api:ab -- --baseline <checkout> [--rounds N] [--baseline-flags '<node flags>']",
    );
  const rounds = Number(option('--rounds') ?? 6);
  const pacedOption = option('--paced-rate');
  const pacedRate = pacedOption === undefined ? null : Number(pacedOption);
  if (pacedRate !== null && !(pacedRate > 0)) throw new Error('--paced-rate must be a rate > 0');
  const baselineFlags = option('--baseline-flags')?.split(/\s+/).filter(Boolean) ?? API_NODE_FLAGS;
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${rounds} rounds, each build once per round (order swapped every round), fresh server per run, ` +
      `POST ${VERITY_PATH}, ${WARMUP_S} s warm-up then ${DURATION_S} s saturated, ${CONNECTIONS} connections` +
      (pacedRate === null ? '' : `, then ${DURATION_S} s paced at ${pacedRate}/s`) +
      '; ' +
      `node flags: this build ${flagsText(API_NODE_FLAGS)}, baseline ${flagsText(baselineFlags)}`,
  );
  const builds: Build[] = [];
  try {
    for (const [name, dir, execArgv] of [
      ['baseline', resolve(checkout), baselineFlags],
      ['this build', resolve(__dirname, '..', '..'), API_NODE_FLAGS],
    ] as const) {
      builds.push({
        name,
        script: serverScript(dir),
        execArgv,
        database: await createTestDatabase(),
        runs: [],
      });
    }
    for (let round = 1; round <= rounds; round++) {
      for (const build of round % 2 ? builds : [...builds].reverse()) {
        const run = await measure(build, pacedRate);
        build.runs.push(run);
        console.log(
          `round ${round} ${build.name.padEnd(12)} ${Math.round(run.reqPerSec).toString().padStart(6)} req/s  ` +
            `${run.total.toFixed(1)} µs/request (user ${run.user.toFixed(1)}, system ${run.system.toFixed(1)}), ` +
            `${run.statementsPerThousand.toFixed(2)} statements per 1,000 calls` +
            (run.pacedP99 === null ? '' : `, paced p99 ${run.pacedP99.toFixed(2)} ms`),
        );
      }
    }
    for (const build of builds) console.log(summary(build));
    const [base, current] = builds;
    const diffs = current.runs.map((r, i) => r.total - base.runs[i].total);
    const d = median(diffs);
    console.log(
      `this build − baseline, paired by round: median ${d.toFixed(1)} µs/request (${((100 * d) / median(base.runs.map((r) => r.total))).toFixed(1)} %), ` +
        `range ${Math.min(...diffs).toFixed(1)} to ${Math.max(...diffs).toFixed(1)} µs` +
        (Math.min(...diffs) < 0 && Math.max(...diffs) > 0
          ? ' (the rounds disagree on the sign)'
          : ''),
    );
    if (pacedRate !== null) {
      const p99Diffs = current.runs.map((r, i) => r.pacedP99! - base.runs[i].pacedP99!);
      console.log(
        `paced p99 at ${pacedRate}/s, this build − baseline, paired by round: median ${median(p99Diffs).toFixed(2)} ms, ` +
          `range ${Math.min(...p99Diffs).toFixed(2)} to ${Math.max(...p99Diffs).toFixed(2)} ms`,
      );
    }
  } finally {
    for (const build of builds) await build.database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
