import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { keepLatestMapLines } from './perf-map';
import { readPerfSamples, type PerfSample } from './perf-stacks';

/** Samples per second of each thread (cpu-clock): 2,000 gives ~20,000 samples in 10 s of load. */
const FREQUENCY = 2_000;

/** Runs `perf` with `args`; resolves with its stdout lines consumed by `read`, or rejects with its stderr. */
function runPerf<T>(
  args: string[],
  read: (lines: AsyncIterable<string>) => Promise<T>,
): Promise<T> {
  const child = spawn('perf', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(`perf could not start (${error.message}); it is Debian's package linux-perf`),
      ),
    );
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`perf ${args[0]} exited ${code}: ${stderr.trim()}`)),
    );
  });
  const result = read(createInterface({ input: child.stdout, crlfDelay: Infinity }));
  return Promise.all([result, exited]).then(([value]) => value);
}

/** Rejects with what to install when `perf` is not on the PATH. */
export function checkPerf(): Promise<void> {
  return runPerf(['--version'], drain);
}

async function drain(lines: AsyncIterable<string>): Promise<void> {
  for await (const _line of lines); // nothing to read
}

/** Samples every thread of `pid` on the cpu-clock, with call graphs, for `seconds`, into `file`. */
export function recordPerf(pid: number, seconds: number, file: string): Promise<void> {
  const args = [
    'record',
    '-q',
    '-e',
    'cpu-clock',
    '-F',
    String(FREQUENCY),
    '-g',
    '-p',
    String(pid),
  ];
  return runPerf([...args, '-o', file, '--', 'sleep', String(seconds)], drain);
}

/**
 * The samples `pid` left in `file`. JavaScript frames are named from /tmp/perf-<pid>.map,
 * which node writes when run with --perf-basic-prof, keeping only the latest code at each
 * address; remove it with {@link removePerfMap} once read.
 */
export async function perfSamples(pid: number, file: string): Promise<PerfSample[]> {
  await keepLatestMapLines(pid);
  return runPerf(['script', '-F', 'tid,ip,sym,dso', '-i', file], readPerfSamples);
}

/** Removes the symbol map node wrote for `pid` (--perf-basic-prof). */
export function removePerfMap(pid: number): Promise<void> {
  return rm(`/tmp/perf-${pid}.map`, { force: true });
}
