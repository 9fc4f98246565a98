// The diagnostic modes of bench:api: where a call's time goes (--profile, --perf) and what it
// allocates (--allocations). Each prints its findings instead of the comparison's verdicts.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { API_NODE_FLAGS, WARMUP_S, verityEnv } from '../support/api-bench.config';
import { startChildServer, type ChildServer } from '../support/child-server';
import { API_CATEGORIES, summariseCpuProfile } from '../support/cpu-profile.summary';
import type { LoadResult } from '../support/load';
import { checkPerf, perfSamples, recordPerf, removePerfMap } from '../support/perf-record';
import {
  hasFrame,
  KERNEL,
  splitPerfSamples,
  type PerfGroup,
  type PerfSplit,
} from '../support/perf-stacks';
import { bareLoad, check, DURATION_S, FLOOR_PATH, measured, verityLoad } from './measure';

/** One saturated Verity run under `node --cpu-prof`, summarised by owner and function. */
export async function profile(databaseUrl: string, logDir: string): Promise<void> {
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
export async function allocations(databaseUrl: string, logDir: string): Promise<void> {
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

/** The rows of the --perf split, each inclusive of what it calls. */
function perfGroups(mainTid: number): PerfGroup[] {
  return [
    {
      label: 'kernel (the sampled frame is in the kernel)',
      matches: (s) => s.frames[0]?.dso === KERNEL,
    },
    { label: 'socket writes (tcp_sendmsg)', matches: (s) => hasFrame(s, 'tcp_sendmsg') },
    {
      label: '  of which waking the reader (sock_def_readable)',
      matches: (s) => hasFrame(s, 'tcp_sendmsg') && hasFrame(s, 'sock_def_readable'),
    },
    { label: 'socket reads (tcp_recvmsg)', matches: (s) => hasFrame(s, 'tcp_recvmsg') },
    {
      label: 'garbage collection on the main thread',
      matches: (s) => s.tid === mainTid && hasFrame(s, 'v8::internal::Heap::CollectGarbage'),
    },
    { label: 'other threads (JIT compiler, GC helpers)', matches: (s) => s.tid !== mainTid },
  ];
}

/** Verity's own compiled code: JavaScript frames of a script under dist/apps or dist/libs. */
const OWN_CODE = /\/dist\/(apps|libs)\//;

interface PerfRow {
  name: string;
  cpuUsPerCall: number;
  split: PerfSplit;
}

/**
 * --perf: the bare server, the framework floor and Verity, each saturated once under
 * `perf record` (cpu-clock, call graphs, every thread; node's --perf-basic-prof names the
 * JavaScript frames), and each one's CPU per call split by where it was spent: the kernel's
 * socket writes and the wake-ups of the reader inside them, garbage collection, other
 * threads, and Verity's own functions (inclusive). V8's --cpu-prof cannot tell these apart: it
 * charges kernel time to the JavaScript frame that made the system call (docs/benchmarks.md).
 * Needs perf (Debian's linux-perf) and permission to sample (root, or perf_event_paranoid <= 1).
 */
export async function perfSplit(databaseUrl: string, logDir: string): Promise<void> {
  await checkPerf();
  const withMap = ['--perf-basic-prof'];
  const servers: [string, ChildServer, (label: string, s: number) => Promise<LoadResult>][] = [];
  try {
    const bare = await startChildServer({
      script: 'bare-server.child.js',
      env: {},
      stdoutPath: '/dev/null',
      execArgv: withMap,
    });
    servers.push(['bare', bare, (label, s) => bareLoad(bare, label, s)]);
    const floor = await startChildServer({
      script: 'floor-server.child.js',
      env: {},
      stdoutPath: '/dev/null',
      execArgv: [...API_NODE_FLAGS, ...withMap],
    });
    servers.push(['floor', floor, (label, s) => bareLoad(floor, label, s, FLOOR_PATH)]);
    const verity = await startChildServer({
      script: 'verity-server.child.js',
      env: verityEnv(databaseUrl, true),
      stdoutPath: join(logDir, 'verity-perf.log'),
      execArgv: [...API_NODE_FLAGS, ...withMap],
    });
    servers.push(['verity', verity, (label, s) => verityLoad(verity, label, s)]);
    const rows: PerfRow[] = [];
    for (const [name, server, load] of servers) {
      await load('warm-up', WARMUP_S);
      const file = join(logDir, `${name}.perf.data`);
      const [run] = await Promise.all([
        measured(server, () => load(`${name} (perf record)`, DURATION_S)),
        recordPerf(server.pid, DURATION_S, file),
      ]);
      const split = splitPerfSamples(
        await perfSamples(server.pid, file),
        perfGroups(server.pid),
        OWN_CODE,
      );
      if (run.serverCpuUsPerRequest === null) throw new Error('/proc gave no CPU for the server');
      rows.push({ name, cpuUsPerCall: run.serverCpuUsPerRequest, split });
    }
    printPerfSplit(rows);
  } finally {
    for (const [, server] of servers.reverse()) {
      await server.stop();
      await removePerfMap(server.pid);
    }
  }
}

function printPerfSplit(rows: PerfRow[]): void {
  const line = (label: string, value: (row: PerfRow) => number, digits = 1) =>
    console.log(
      `${label.padEnd(58)}${rows.map((r) => value(r).toFixed(digits).padStart(9)).join('')}`,
    );
  console.log(
    '\nserver CPU per call, µs, split by where perf sampled it (share of the samples × the CPU per call from /proc; inclusive rows)',
  );
  console.log(`${''.padEnd(58)}${rows.map((r) => r.name.padStart(9)).join('')}`);
  line('CPU per call (/proc)', (r) => r.cpuUsPerCall);
  line('samples', (r) => r.split.samples, 0);
  for (const label of rows[0].split.groups.keys())
    line(label, (r) => (r.split.groups.get(label) ?? 0) * r.cpuUsPerCall);
  line(
    "Verity's own code (frames under dist/apps, dist/libs)",
    (r) => r.split.ownCode * r.cpuUsPerCall,
  );
  const own = new Map<string, number>();
  for (const r of rows)
    for (const [label, share] of r.split.ownFunctions)
      own.set(label, (own.get(label) ?? 0) + share * r.cpuUsPerCall);
  const top = [...own].sort((a, b) => b[1] - a[1]).slice(0, 10);
  for (const [label] of top)
    line(`  ${label}`.slice(0, 57), (r) => (r.split.ownFunctions.get(label) ?? 0) * r.cpuUsPerCall);
  if (rows.some((r) => r.name === 'verity' && r.split.ownCode === 0))
    console.log(
      'note: no frame of Verity was named: the perf map (/tmp/perf-<pid>.map) was not read',
    );
}
