import { readFileSync } from 'node:fs';
import { isStallsRequest, type StallReport, type StallsReply } from './server-protocol';

/** A gap between two ticks of the 1 ms timer longer than this is a stall, ms. */
const STALL_MS = 5;

/**
 * Watches a server's event loop for stalls: a 1 ms timer notes every gap between its ticks
 * longer than STALL_MS, and the CPU the process used meanwhile (every thread: JavaScript, the
 * garbage collector's helpers, libuv). A stall the process spent on a CPU was its own work; in
 * one it spent mostly off CPU it was not running: waiting for a core (the load generator,
 * PostgreSQL and the kernel share the machine's cores), for the kernel or for the hypervisor.
 * The main thread's run-queue wait over the whole watch (Linux schedstat) tells the first
 * apart: the time it was ready to run while every core was busy with something else.
 */
class StallMonitor {
  private timer: NodeJS.Timeout | null = null;
  private report: StallReport = emptyReport();
  private startedAt = 0;
  private runQueueAtStart: number | null = null;

  start(): void {
    this.stop();
    this.report = emptyReport();
    this.startedAt = performance.now();
    this.runQueueAtStart = runQueueWaitMs();
    let last = this.startedAt;
    let lastCpu = process.cpuUsage();
    this.timer = setInterval(() => {
      const now = performance.now();
      const gap = now - last;
      const cpu = process.cpuUsage();
      if (gap > STALL_MS) {
        this.report.stalls++;
        this.report.stalledMs += gap;
        this.report.worstMs = Math.max(this.report.worstMs, gap);
        this.report.cpuMs += (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
      }
      last = now;
      lastCpu = cpu;
    }, 1);
  }

  stop(): StallReport {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.report.monitoredMs = performance.now() - this.startedAt;
      const now = runQueueWaitMs();
      this.report.runQueueWaitMs =
        now === null || this.runQueueAtStart === null ? null : now - this.runQueueAtStart;
    }
    return this.report;
  }
}

function emptyReport(): StallReport {
  return { stalls: 0, stalledMs: 0, worstMs: 0, cpuMs: 0, monitoredMs: 0, runQueueWaitMs: null };
}

/**
 * How long this process's main thread has waited on a run queue for a CPU since it started,
 * ms (the second field of /proc/self/schedstat, in ns); null where the kernel does not say.
 */
function runQueueWaitMs(): number | null {
  try {
    const waitedNs = Number(readFileSync('/proc/self/schedstat', 'utf8').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : null;
  } catch {
    return null;
  }
}

/** Answers the parent's stall requests (start, then stop with the report) in a server child. */
export function serveStallRequests(): void {
  const monitor = new StallMonitor();
  process.on('message', (message) => {
    if (!isStallsRequest(message)) return;
    if (message.on) {
      monitor.start();
      process.send?.({ type: 'stalls', on: true } satisfies StallsReply);
    } else
      process.send?.({ type: 'stalls', on: false, report: monitor.stop() } satisfies StallsReply);
  });
}

/** One line for a report: how often the server's event loop stalled, and on or off a CPU. */
export function formatStalls(report: StallReport): string {
  const watched = `${(report.monitoredMs / 1000).toFixed(1)} s`;
  const stalls =
    report.stalls === 0
      ? `server event loop: no stall over ${STALL_MS} ms in ${watched}`
      : `server event loop: ${report.stalls} stalls over ${STALL_MS} ms in ${watched}, ` +
        `worst ${report.worstMs.toFixed(1)} ms, ${report.stalledMs.toFixed(0)} ms in all; ` +
        `the process used ${report.cpuMs.toFixed(0)} ms of CPU during them (every thread; for the rest it was not running)`;
  return report.runQueueWaitMs === null
    ? stalls
    : `${stalls}; its main thread waited ${report.runQueueWaitMs.toFixed(0)} ms in all on the run queue for a CPU (schedstat)`;
}
