// Child processes of the batch benchmark (api, ingest, scorer, or `verity start`), with RSS
// sampling from /proc and optional V8 CPU profiles. Adapted from test/distributed/process-harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../test/distributed/process-harness';

const ENTRY = {
  api: ['dist/apps/api/src/main.js'],
  ingest: ['dist/apps/ingest/src/main.js'],
  scorer: ['dist/apps/scorer/src/main.js'],
  verity: ['dist/apps/verity/src/main.js', 'start'],
} as const;

/** Every child still running: killed if the benchmark itself exits early. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A deployable started from dist/ as its own node process. */
export interface BenchProcess {
  name: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** SIGTERM (graceful: a --cpu-prof profile is written) and wait; SIGKILL after 20 s. */
  stop(): Promise<void>;
}

/** Starts `kind` with `env` and waits until /healthz answers; output goes to `logDir/<name>.log`. */
export async function startProcess(
  kind: keyof typeof ENTRY,
  name: string,
  env: Record<string, string>,
  logDir: string,
  profileDir?: string,
): Promise<BenchProcess> {
  const port = await freePort();
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const execArgv = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...execArgv, ...ENTRY[kind]], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with ${child.exitCode}; see ${logDir}/${name}.log`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy; see ${logDir}/${name}.log`);
    }
    await sleep(200);
  }
  return {
    name,
    port,
    pid: child.pid ?? -1,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** VmRSS and VmHWM (peak) of a process, in MiB, from /proc/<pid>/status. */
export async function readRss(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS (Linux clear_refs 5), so the peak covers what follows only. */
export async function resetPeakRss(pid: number): Promise<boolean> {
  return writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
}

/** Polls VmRSS every `everyMs` until stopped; returns the highest value seen (MiB). */
export function sampleRss(pid: number, everyMs = 20): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rss } = await readRss(pid).catch(() => ({ rss: 0 }));
      peak = Math.max(peak, rss);
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}
