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

/**
 * CPU seconds the whole machine has been busy (every core; /proc/stat's first line: user, nice,
 * system, irq, softirq and steal, idle and iowait left out); null where unavailable.
 */
export function machineBusySeconds(): number | null {
  try {
    const [cpuLine] = readFileSync('/proc/stat', 'utf8').split('\n', 1);
    const f = cpuLine.trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0)) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/**
 * Measures CPU used by the load generator (this process), one server and PostgreSQL over a run,
 * and what the rest of the machine used meanwhile (other processes, the kernel's interrupts, a
 * hypervisor's steal): a run beside busy neighbours is not comparable with a quiet one.
 */
export async function withCpu<T>(
  serverPid: number,
  run: () => Promise<T>,
): Promise<{ result: T; cpu: string; serverCpuSeconds: number | null }> {
  const t0 = performance.now();
  const client0 = process.cpuUsage();
  const server0 = processCpuSeconds(serverPid);
  const pg0 = postgresCpuSeconds();
  const machine0 = machineBusySeconds();
  const result = await run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(client0);
  const server1 = processCpuSeconds(serverPid);
  const pg1 = postgresCpuSeconds();
  const machine1 = machineBusySeconds();
  const pct = (s: number | null) => (s === null ? 'n/a' : `${Math.round((100 * s) / wall)}%`);
  const serverCpuSeconds = server0 !== null && server1 !== null ? server1 - server0 : null;
  const clientCpuSeconds = (c.user + c.system) / 1e6;
  const postgres = postgresDelta(pg0, pg1);
  const rest =
    machine0 === null || machine1 === null || serverCpuSeconds === null
      ? null
      : Math.max(0, machine1 - machine0 - serverCpuSeconds - clientCpuSeconds - (postgres ?? 0));
  const cpu =
    `cpu (100% = one core): server ${pct(serverCpuSeconds)}, ` +
    `load generator ${pct(clientCpuSeconds)}, postgres (all databases) ${pct(postgres)}, rest of the machine ${pct(rest)}`;
  return { result, cpu, serverCpuSeconds };
}
