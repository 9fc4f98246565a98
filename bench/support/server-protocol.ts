/** What a benchmark server child sends its parent once it listens (over the fork IPC channel). */
export interface ServerReady {
  type: 'ready';
  port: number;
  /** The API key of the benchmark account (Verity servers only). */
  apiKey?: string;
}

/** The parent's request to close the server and exit (lets `--cpu-prof` write its profile). */
export interface ServerStop {
  type: 'stop';
}

export function isServerStop(message: unknown): message is ServerStop {
  return hasType(message, 'stop');
}

export function isServerReady(message: unknown): message is ServerReady {
  return hasType(message, 'ready');
}

/** The parent asks a Verity child how many SQL statements it has sent so far. */
export interface StatsRequest {
  type: 'stats';
}

/** The answer: statements sent to PostgreSQL since the child started (every pool client). */
export interface StatsReply {
  type: 'stats';
  statements: number;
}

export function isStatsRequest(message: unknown): message is StatsRequest {
  return hasType(message, 'stats');
}

export const isStatsReply = isStatsRequest as (message: unknown) => message is StatsReply;

/** The parent asks a Verity child to start (`on`) or stop sampling its allocations. */
export interface AllocationsRequest {
  type: 'allocations';
  on: boolean;
}

/** One allocation site: a function (and its file and line) and the bytes it allocated. */
export interface AllocationSite {
  site: string;
  bytes: number;
}

/** The answer: sampling started (`on`), or stopped with what was allocated meanwhile. */
export interface AllocationsReply {
  type: 'allocations';
  on: boolean;
  bytes?: number;
  sites?: AllocationSite[];
}

export function isAllocationsRequest(message: unknown): message is AllocationsRequest {
  return hasType(message, 'allocations');
}

export function isAllocationsReply(message: unknown): message is AllocationsReply {
  return isAllocationsRequest(message);
}

/** The parent asks a server child to start (`on`) or stop watching its event loop for stalls. */
export interface StallsRequest {
  type: 'stalls';
  on: boolean;
}

/** Event-loop stalls seen while watching (bench/support/stall-monitor.ts). */
export interface StallReport {
  /** Gaps between ticks of a 1 ms timer longer than 5 ms. */
  stalls: number;
  /** Their summed and their longest length, ms. */
  stalledMs: number;
  worstMs: number;
  /** CPU the process used (every thread) during those gaps, ms. */
  cpuMs: number;
  /** How long the child watched, ms. */
  monitoredMs: number;
  /**
   * How long the child's main thread was ready to run but waited for a CPU while watched, ms
   * (Linux schedstat); null where the kernel does not say.
   */
  runQueueWaitMs: number | null;
}

/** The answer: watching started (`on`), or stopped with what it saw. */
export interface StallsReply {
  type: 'stalls';
  on: boolean;
  report?: StallReport;
}

export function isStallsRequest(message: unknown): message is StallsRequest {
  return hasType(message, 'stalls');
}

export function isStallsReply(message: unknown): message is StallsReply {
  return isStallsRequest(message);
}

function hasType(message: unknown, type: string): boolean {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type
  );
}
