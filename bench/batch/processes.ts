// Child processes of the batch benchmark (api, ingest, scorer, or `verity start`), with RSS
// sampling from /proc and optional V8 CPU profiles, on test/distributed's process harness.
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDeployable, type Deployable } from '../../test/distributed/process-harness';

/** Every child still running: killed if the benchmark itself exits early. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A deployable started from dist/ as its own node process. */
export type BenchProcess = Deployable;

/**
 * Starts `kind` with `env` (test/distributed's harness) and waits until /healthz answers;
 * output goes to `logDir/<name>.log`. With `profileDir` the process writes a V8 CPU profile
 * when it stops (SIGTERM).
 */
export function startProcess(
  kind: 'api' | 'ingest' | 'scorer' | 'verity',
  name: string,
  env: Record<string, string>,
  logDir: string,
  profileDir?: string,
  port?: number,
): Promise<BenchProcess> {
  // BENCH_NODE_ARGS: extra node/V8 flags for every child, for experiments (V8 flags such as
  // --no-memory-reducer are refused in NODE_OPTIONS).
  const execArgv = [
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
      : []),
  ];
  return startDeployable(kind, name, env, logDir, {
    execArgv,
    sourceMaps: false, // the deployed command line (package.json start:*) has none
    port,
    onSpawn: (child) => {
      running.add(child);
      child.once('exit', () => running.delete(child));
    },
  });
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
