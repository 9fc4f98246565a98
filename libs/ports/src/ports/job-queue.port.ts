/** Options of one enqueued job. */
export interface JobOptions {
  /** Dedupe key: adding a job whose id is already known (queued, running or recently done) is a no-op. */
  jobId?: string;
  /** Total tries, the first included. Default 1. */
  attempts?: number;
  /**
   * Base of the capped exponential backoff (`cappedBackoffMs` of @verity/common): retry n waits
   * `min(backoffCapMs, backoffMs * 2^(n-1))`. Default 1000.
   */
  backoffMs?: number;
  /** Longest wait between two tries. Default 1 h. */
  backoffCapMs?: number;
  /**
   * Forget `jobId` as soon as the job succeeded or failed for good, so adding it again runs it
   * again: the dedupe then only covers a job that is queued, waiting for a retry or running.
   * Default false (a finished id is remembered for a day, a failed one for a week).
   */
  forgetWhenDone?: boolean;
}

/** A job as seen by a handler. `payload` went through JSON, as it would through Redis. */
export interface QueuedJob<T> {
  id: string;
  queue: string;
  payload: T;
  /** 1 for the first try. */
  attempt: number;
}

/** Processes one job; throwing schedules a retry (or the final failure). */
export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

/** Called once when a job failed its last attempt. */
export type JobFailedHook<T> = (job: QueuedJob<T>, error: Error) => void;

/** One entry of {@link JobQueue.addBulk}. */
export interface BulkJob<T> {
  payload: T;
  opts?: JobOptions;
}

/**
 * Named work queues with retries (Bull semantics): each job runs on one worker at a time,
 * a throwing handler is retried with capped exponential backoff up to `attempts`, then reported
 * through `onFailed`. Jobs of a worker that dies are run again.
 */
export interface JobQueue {
  /** Enqueues one job; returns its id (the given `jobId`, or a generated one). */
  add<T>(queue: string, payload: T, opts?: JobOptions): Promise<string>;
  /** Enqueues many jobs in one round trip. */
  addBulk<T>(queue: string, jobs: readonly BulkJob<T>[]): Promise<string[]>;
  /** Starts processing `queue` with up to `concurrency` handlers at once. Call once per queue. */
  process<T>(
    queue: string,
    concurrency: number,
    handler: JobHandler<T>,
    onFailed?: JobFailedHook<T>,
  ): Promise<void>;
  /** Resolves when the queue's backend answers (readiness); rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Stops taking jobs, waits for in-flight handlers, releases connections. */
  close(): Promise<void>;
}
