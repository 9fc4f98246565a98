import type { UnfinishedJobStatus } from './metric-labels';

/** Lag of one consumer group on one topic, summed over partitions. */
export interface ConsumerLag {
  readonly group: string;
  readonly topic: string;
  readonly lag: number;
}

/** Reads consumer lag at scrape time (e.g. kafkajs admin offsets); the row bus provides it. */
export type LagSource = () => Promise<readonly ConsumerLag[]>;

/** Bytes the in-process row bus holds for one topic. */
export interface BusBacklog {
  readonly topic: string;
  readonly bytes: number;
}

/** Reads the in-process row bus's backlog at scrape time (MemoryRowBus.backlog). */
export type BusBacklogSource = () => readonly BusBacklog[];

/** Age of one loaded data set. `source` is a fixed data-set name, e.g. `disposable_domains`. */
export interface DataSourceAge {
  readonly source: string;
  readonly ageSeconds: number;
}

/** Reads data-set ages at scrape time; the engines that load data sets provide it. */
export type DataAgeSource = () => Promise<readonly DataSourceAge[]> | readonly DataSourceAge[];

/** Whether one data set is in use: loaded or stale (true), or never loaded: missing or unreadable (false). */
export interface DataSourceState {
  readonly source: string;
  readonly loaded: boolean;
}

/** Reads data-set states at scrape time; the engines that load data sets provide it. */
export type DataStateSource = () =>
  Promise<readonly DataSourceState[]> | readonly DataSourceState[];

/** One readiness check's result, as /readyz computes it. */
export interface ReadinessResult {
  readonly check: string;
  readonly ok: boolean;
}

/**
 * Runs the readiness checks at scrape time (the health registry provides it). It must settle
 * on its own: each check has its own deadline, and a failing check is a 0, never a missing series.
 */
export type ReadinessSource = () => Promise<readonly ReadinessResult[]>;

/** Longest idle time of the unfinished jobs of one status. */
export interface JobIdle {
  readonly status: UnfinishedJobStatus;
  readonly idleSeconds: number;
}

/** Reads batch job idle times at scrape time (ingest provides it from the database). */
export type JobIdleSource = () => Promise<readonly JobIdle[]>;

/**
 * Runs a scrape-time source with a deadline. A failing or hanging source yields `undefined`
 * so one slow Kafka admin call cannot fail the whole `/metrics` scrape (Prometheus' default
 * scrape timeout is 10 s; the other metrics must still arrive).
 */
export async function readSource<T>(
  source: () => Promise<T> | T,
  timeoutMs: number,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(source), deadline]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
