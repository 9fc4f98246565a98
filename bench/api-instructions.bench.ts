// `npm run bench:api:instructions -- [--baseline <checkout>] [--baseline-flags '<node flags>']
// [--floors]`: the machine instructions one POST /v1/email/validate (BENCH_ROUTE=verify: POST
// /v1/verify) costs the Verity server,
// counted by valgrind's callgrind, for this build and optionally another built checkout (or the
// same build with other node flags: `--baseline . --baseline-flags ''`). `--floors` counts the
// bare Fastify echo and the framework floor of bench:api too.
//
// CPU time per request moves by ±10 % between runs on a quiet machine, and by far more on a
// shared one (a 2-core VM here gave 40 to 100 µs for the same build within half an hour). An
// instruction count does not depend on what else the machine runs, so it can judge a change of
// a few per cent where timed runs cannot. It is not time: it does not see cache misses, the
// kernel (the socket write) or waiting. Every thread of the server is counted: the JIT's
// compiler threads and the GC's helpers too.
//
// Each build's server runs under callgrind (about 50 times slower). After a warm-up (the JIT
// settles), the counters are zeroed, one block of requests runs, and callgrind dumps; so for
// every block. The builds run side by side: a count does not depend on the other one.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '@verity/testing';
import { API_NODE_FLAGS, BODIES, VERITY_PATH, verityEnv } from './support/api-bench.config';
import { option } from './support/argv';
import { startChildServer } from './support/child-server';
import { median } from './support/median';
import { runLoad } from './support/load';

const run = promisify(execFile);

const WARMUP = Number(process.env.BENCH_IR_WARMUP ?? 30_000);
const BLOCK = Number(process.env.BENCH_IR_BLOCK ?? 3_000);
const BLOCKS = Number(process.env.BENCH_IR_BLOCKS ?? 3);
const CONNECTIONS = 10;

/** A server to count: one of bench:api's server children, of some checkout. */
interface Target {
  name: string;
  /** The compiled server child. */
  script: string;
  flags: readonly string[];
  /** Verity servers get their own fresh database and an API key. */
  verity: boolean;
  /** The path of the call: the bare server echoes on /echo. */
  path: string;
}

interface Counted {
  target: Target;
  /** Instructions per request of each block. */
  blocks: number[];
}

/** The instruction total of a callgrind dump (its `totals:` or `summary:` line). */
async function instructions(file: string): Promise<number> {
  const match = /^(?:totals|summary): (\d+)/m.exec(await readFile(file, 'utf8'));
  if (!match) throw new Error(`${file} has no instruction total`);
  return Number(match[1]);
}

function childScript(checkout: string, file: string): string {
  const script = join(checkout, 'dist', 'bench', 'support', file);
  if (!existsSync(script)) {
    throw new Error(`${script} is missing: run npm install and npm run build in ${checkout}`);
  }
  return script;
}

async function count(target: Target, dir: string): Promise<Counted> {
  const database = target.verity ? await createTestDatabase() : null;
  const out = join(dir, target.name.replace(/\W+/g, '-'));
  const server = await startChildServer({
    script: target.script,
    env: database ? verityEnv(database.url, true) : {},
    stdoutPath: '/dev/null',
    execArgv: [...target.flags],
    // V8 writes and patches machine code at run time, in anonymous memory.
    wrapper: [
      'valgrind',
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--dump-instr=no',
      '--collect-jumps=no',
      `--callgrind-out-file=${out}.%p`,
      '--log-file=/dev/null',
    ],
    startTimeoutMs: 900_000,
  });
  const control = (what: string) => run('callgrind_control', [what, String(server.pid)]);
  const load = async (amount: number) => {
    const result = await runLoad({
      label: target.name,
      url: `http://127.0.0.1:${server.port}${target.path}`,
      connections: CONNECTIONS,
      durationS: 1,
      amount,
      // Under valgrind a request that meets a compile or a full collection can take seconds.
      timeoutS: 120,
      headers: server.apiKey === undefined ? {} : { 'x-api-key': server.apiKey },
      bodies: BODIES,
    });
    if (result.non2xx + result.errors > 0) {
      throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    return result.requests;
  };
  try {
    await load(WARMUP);
    const blocks: number[] = [];
    for (let block = 1; block <= BLOCKS; block++) {
      await control('--zero');
      const requests = await load(BLOCK);
      await control('--dump');
      blocks.push((await instructions(`${out}.${server.pid}.${block}`)) / requests);
      console.log(
        `${target.name.padEnd(12)} block ${block}: ${Math.round(blocks[block - 1]).toLocaleString('en-US')} instructions per request`,
      );
    }
    return { target, blocks };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

async function main(): Promise<void> {
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed (apt-get install -y valgrind)');
  });
  const here = resolve(__dirname, '..', '..');
  const targets: Target[] = [];
  const baseline = option('--baseline');
  if (baseline !== undefined) {
    targets.push({
      name: 'baseline',
      script: childScript(resolve(baseline), 'verity-server.child.js'),
      flags: option('--baseline-flags')?.split(/\s+/).filter(Boolean) ?? API_NODE_FLAGS,
      verity: true,
      path: VERITY_PATH,
    });
  }
  targets.push({
    name: 'this build',
    script: childScript(here, 'verity-server.child.js'),
    flags: API_NODE_FLAGS,
    verity: true,
    path: VERITY_PATH,
  });
  if (process.argv.includes('--floors')) {
    targets.push(
      {
        name: 'bare',
        script: childScript(here, 'bare-server.child.js'),
        flags: [],
        verity: false,
        path: '/echo',
      },
      {
        name: 'floor',
        script: childScript(here, 'floor-server.child.js'),
        flags: API_NODE_FLAGS,
        verity: false,
        path: VERITY_PATH,
      },
    );
  }
  console.log(
    `node ${process.version}; ${WARMUP} requests of warm-up, then ${BLOCKS} blocks of ${BLOCK} ` +
      `(BENCH_IR_WARMUP, BENCH_IR_BLOCKS, BENCH_IR_BLOCK), ${CONNECTIONS} connections`,
  );
  for (const t of targets)
    console.log(`${t.name.padEnd(12)} ${t.script}, node flags ${t.flags.join(' ') || 'none'}`);
  const dir = await mkdtemp(join(tmpdir(), 'verity-callgrind-'));
  try {
    // Settled, not all: a server that fails leaves the others to finish and stop.
    const settled = await Promise.allSettled(targets.map((t) => count(t, dir)));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const counted = settled.map((r) => (r as PromiseFulfilledResult<Counted>).value);
    // The least of the blocks: the JIT may still be settling (counts fall block by block) and
    // a block can meet a full collection (one count far above the others).
    const least = new Map(counted.map((c) => [c.target.name, Math.min(...c.blocks)]));
    const n = (value: number) => Math.round(value).toLocaleString('en-US');
    for (const c of counted) {
      console.log(
        `${c.target.name.padEnd(12)} least ${n(Math.min(...c.blocks))}, median ${n(median(c.blocks))} instructions per request (blocks: ${c.blocks.map(n).join(', ')})`,
      );
    }
    const current = least.get('this build')!;
    const base = least.get('baseline');
    if (base !== undefined) {
      console.log(
        `this build − baseline, least blocks: ${n(current - base)} instructions per request (${((100 * (current - base)) / base).toFixed(1)} %)`,
      );
    }
    const bare = least.get('bare');
    const floor = least.get('floor');
    if (bare !== undefined && floor !== undefined) {
      console.log(
        `instructions per request ÷ bare, least blocks: framework floor ${(floor / bare).toFixed(2)}, this build ${(current / bare).toFixed(2)} ` +
          `(bench:api's target, 0.5 × bare's calls per second, allows 2 × bare's CPU per call; instructions stand in for CPU)`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
