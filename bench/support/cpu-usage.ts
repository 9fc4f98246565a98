import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ on Linux

/** CPU seconds in user and in system mode used so far by process `pid`, from /proc. */
export function processCpuTimes(pid: number): { user: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICKS_PER_S, system: Number(fields[12]) / TICKS_PER_S };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) used so far by process `pid`, from /proc; null where unavailable. */
export function processCpuSeconds(pid: number): number | null {
  const times = processCpuTimes(pid);
  return times === null ? null : times.user + times.system;
}

/** CPU seconds used so far by each process named `postgres` (server and backends), by pid. */
export function postgresCpuSeconds(): Map<number, number> | null {
  const out = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      } catch {
        continue;
      }
      const s = processCpuSeconds(Number(entry));
      if (s !== null) out.set(Number(entry), s);
    }
  } catch {
    return null;
  }
  return out.size > 0 ? out : null;
}

/** CPU used between two snapshots; backends that started in between count in full, ended ones are lost. */
function postgresDelta(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

/** Measures CPU used by the load generator (this process), one server and PostgreSQL over a run. */
export async function withCpu<T>(
  serverPid: number,
  run: () => Promise<T>,
): Promise<{ result: T; cpu: string; serverCpuSeconds: number | null }> {
  const t0 = performance.now();
  const client0 = process.cpuUsage();
  const server0 = processCpuSeconds(serverPid);
  const pg0 = postgresCpuSeconds();
  const result = await run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(client0);
  const server1 = processCpuSeconds(serverPid);
  const pg1 = postgresCpuSeconds();
  const pct = (s: number | null) => (s === null ? 'n/a' : `${Math.round((100 * s) / wall)}%`);
  const serverCpuSeconds = server0 !== null && server1 !== null ? server1 - server0 : null;
  const cpu =
    `cpu (100% = one core): server ${pct(serverCpuSeconds)}, ` +
    `load generator ${pct((c.user + c.system) / 1e6)}, postgres (all databases) ${pct(postgresDelta(pg0, pg1))}`;
  return { result, cpu, serverCpuSeconds };
}
