// How the scorers were scheduled during a job, from /proc: CPU of their main (JavaScript)
// thread and of their helper threads (V8's GC and compiler workers, libuv's pool), and how
// often the main thread was preempted and how long it waited for a core. Tells "more work per
// row" from "the same work, preempted more often" when replicas share the machine's cores.
import { readdir, readFile } from 'node:fs/promises';

const TICKS = 100; // USER_HZ

/** Summed over the processes: seconds of CPU and of run-queue wait, and preemptions. */
export interface SchedUse {
  mainCpuS: number;
  /** The part of mainCpuS spent in the kernel (system calls, page faults). */
  mainSysS: number;
  /** Minor page faults of the whole process (pages first touched: heap growth). */
  minorFaults: number;
  helperCpuS: number;
  /** Involuntary context switches of the main threads. */
  preemptions: number;
  /** Time the main threads were runnable but waiting for a core. */
  runQueueWaitS: number;
}

export const NO_SCHED: SchedUse = {
  mainCpuS: 0,
  mainSysS: 0,
  minorFaults: 0,
  helperCpuS: 0,
  preemptions: 0,
  runQueueWaitS: 0,
};

/** Fields of /proc/…/stat after the command name (field 3 of the man page is index 0). */
async function statFields(path: string): Promise<string[]> {
  const stat = await readFile(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

async function processSched(pid: number): Promise<SchedUse> {
  const main = `/proc/${pid}/task/${pid}`;
  const status = await readFile(`${main}/status`, 'utf8');
  const [, waitNs] = (await readFile(`${main}/schedstat`, 'utf8')).trim().split(' ').map(Number);
  let mainTicks = 0;
  let mainSysTicks = 0;
  let helperTicks = 0;
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    // A helper thread can end between the listing and the read.
    const f = await statFields(`/proc/${pid}/task/${tid}/stat`).catch(() => null);
    if (f === null) continue;
    const ticks = Number(f[11]) + Number(f[12]); // utime + stime
    if (tid === String(pid)) {
      mainTicks = ticks;
      mainSysTicks = Number(f[12]);
    } else helperTicks += ticks;
  }
  const minorFaults = Number((await statFields(`/proc/${pid}/stat`))[7]); // minflt
  return {
    mainCpuS: mainTicks / TICKS,
    mainSysS: mainSysTicks / TICKS,
    minorFaults,
    helperCpuS: helperTicks / TICKS,
    preemptions: Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0),
    runQueueWaitS: (waitNs ?? 0) / 1e9,
  };
}

/** The processes' scheduling counters, summed (a process that is gone counts nothing). */
export async function schedSnapshot(pids: readonly number[]): Promise<SchedUse> {
  const parts = await Promise.all(pids.map((pid) => processSched(pid).catch(() => NO_SCHED)));
  return parts.reduce(addSched, NO_SCHED);
}

export function addSched(a: SchedUse, b: SchedUse): SchedUse {
  return {
    mainCpuS: a.mainCpuS + b.mainCpuS,
    mainSysS: a.mainSysS + b.mainSysS,
    minorFaults: a.minorFaults + b.minorFaults,
    helperCpuS: a.helperCpuS + b.helperCpuS,
    preemptions: a.preemptions + b.preemptions,
    runQueueWaitS: a.runQueueWaitS + b.runQueueWaitS,
  };
}

/** What the processes used between two snapshots of the same pids. */
export function schedUsed(before: SchedUse, after: SchedUse): SchedUse {
  return {
    mainCpuS: after.mainCpuS - before.mainCpuS,
    mainSysS: after.mainSysS - before.mainSysS,
    minorFaults: after.minorFaults - before.minorFaults,
    helperCpuS: after.helperCpuS - before.helperCpuS,
    preemptions: after.preemptions - before.preemptions,
    runQueueWaitS: after.runQueueWaitS - before.runQueueWaitS,
  };
}

/** "scorers' main threads 4.1 CPU-s (system 0.4), helpers 0.6, 51,000 page faults, preempted 3,118 times, …". */
export function describeSched(s: SchedUse): string {
  return (
    `scorers' main threads ${s.mainCpuS.toFixed(1)} CPU-s (system ${s.mainSysS.toFixed(1)}), ` +
    `helpers ${s.helperCpuS.toFixed(1)}, ${s.minorFaults.toLocaleString('en-US')} page faults, ` +
    `preempted ${s.preemptions.toLocaleString('en-US')} times, ${s.runQueueWaitS.toFixed(1)} s waiting for a core`
  );
}
