// CPU seconds (user + system) spent per process during a job, from /proc/<pid>/stat: shows which
// of the benchmark's processes and services the 2 cores went to.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const TICKS = 100; // USER_HZ: clock ticks per second on Linux

async function ticks(pid: number): Promise<{ comm: string; ticks: number } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after the comm.
    return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Labels → pids to account; `postgres` and `redis` are found by command name. */
export async function cpuSnapshot(named: Record<string, number>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [label, pid] of Object.entries(named)) {
    const t = await ticks(pid);
    if (t) out.set(label, t.ticks / TICKS);
  }
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const t = await ticks(Number(entry));
    if (!t) continue;
    const label =
      t.comm === 'postgres' ? 'postgres (all)' : t.comm === 'redis-server' ? 'redis' : null;
    if (label) out.set(label, (out.get(label) ?? 0) + t.ticks / TICKS);
  }
  return out;
}

/** The pids of the services scripts/infra/up.sh started (kafka, s3proxy), if any. */
export async function infraPids(root: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of ['kafka', 's3proxy']) {
    const pid = Number(
      (await readFile(join(root, '.infra/run', `${name}.pid`), 'utf8').catch(() => '')).trim(),
    );
    if (pid > 0) out[name] = pid;
  }
  return out;
}

/** "name 1.2 s, ..." of what each label used between two snapshots, largest first. */
export function cpuDelta(before: Map<string, number>, after: Map<string, number>): string {
  const used = [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= 0.05);
  const total = used.reduce((n, [, v]) => n + v, 0);
  return (
    `${total.toFixed(1)} CPU-s: ` +
    used
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')
  );
}
