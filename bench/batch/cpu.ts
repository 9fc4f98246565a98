// CPU seconds (user + system) spent per process during a job, from /proc/<pid>/stat: shows which
// of the benchmark's processes and services the 2 cores went to.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const TICKS = 100; // USER_HZ: clock ticks per second on Linux

async function ticks(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after the comm.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** CPU-seconds by label. */
export type CpuSnapshot = Map<string, number>;

/**
 * Labels → pids to account, plus `postgres`: the server backends serving `database` (their
 * process title names it; the server's shared background processes are not counted).
 */
export async function cpuSnapshot(
  named: Record<string, number>,
  database?: string,
): Promise<CpuSnapshot> {
  const out: CpuSnapshot = new Map();
  for (const [label, pid] of Object.entries(named)) {
    const t = await ticks(pid);
    if (t !== null) out.set(label, t / TICKS);
  }
  if (database === undefined) return out;
  out.set('postgres', 0);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const title = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!title.startsWith('postgres:') || !title.includes(` ${database} `)) continue;
    const t = await ticks(Number(entry));
    if (t !== null) out.set('postgres', (out.get('postgres') ?? 0) + t / TICKS);
  }
  return out;
}

/** CPU-seconds each label used between two snapshots (labels missing from `after` are 0). */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  return new Map([...after].map(([k, v]) => [k, Math.max(0, v - (before.get(k) ?? 0))]));
}

/** The pid listening on 127.0.0.1:`port` (from `ss`), or null. */
function listenerPid(port: number): number | null {
  try {
    const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
    const pid = /pid=(\d+)/.exec(out)?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
}

const portOf = (url: string, fallback: number) => Number(new URL(url).port || fallback);

/**
 * The pids of the shared services the distributed run talks to, found by their listening
 * port: kafka (first of KAFKA_BROKERS), s3proxy (S3_ENDPOINT), redis (REDIS_URL).
 */
export function servicePids(env: NodeJS.ProcessEnv): Record<string, number> {
  const ports: Record<string, number> = {
    kafka: portOf(`tcp://${(env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0]}`, 9092),
    s3proxy: portOf(env.S3_ENDPOINT ?? 'http://127.0.0.1:80', 80),
    redis: portOf(env.REDIS_URL ?? 'redis://127.0.0.1:6379', 6379),
  };
  const out: Record<string, number> = {};
  for (const [name, port] of Object.entries(ports)) {
    const pid = listenerPid(port);
    if (pid !== null) out[name] = pid;
  }
  return out;
}

/** "name 1.2 s, ..." of what each label used, largest first. */
export function describeCpu(used: Map<string, number>): string {
  const shown = [...used].filter(([, v]) => v >= 0.05);
  const total = shown.reduce((n, [, v]) => n + v, 0);
  return (
    `${total.toFixed(1)} CPU-s: ` +
    shown
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')
  );
}
