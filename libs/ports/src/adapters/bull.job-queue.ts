import Bull from 'bull';
import { cappedBackoffMs } from '@verity/common';
import { recogniseRedisOutages } from '@verity/integrations';
import type {
  BulkJob,
  JobFailedHook,
  JobHandler,
  JobOptions,
  JobQueue,
  QueuedJob,
} from '../ports/job-queue.port';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_CAP_MS,
  DEFAULT_BACKOFF_MS,
  KEEP_COMPLETED_SECONDS,
  KEEP_FAILED_SECONDS,
} from './job-retention';

/** Queue whose connection answers readiness pings when no other queue was opened yet. */
const PING_QUEUE = 'verity-health';

/** Name of the backoff strategy every job of ours uses. */
const CAPPED = 'verity-capped';

/** What a job carries to {@link BACKOFF_STRATEGIES} (Bull passes `backoff.options`). */
interface CappedBackoff {
  baseMs: number;
  capMs: number;
}

/**
 * Bull's own 'exponential' waits `(2^n - 1) * delay` with no cap; ours is the schedule of
 * @verity/common (the memory adapter's too). Queues injected through `queues` must be created
 * with these in `settings.backoffStrategies`.
 */
export const BACKOFF_STRATEGIES: NonNullable<Bull.AdvancedSettings['backoffStrategies']> = {
  [CAPPED]: (attemptsMade: number, _err: Error, options?: unknown) => {
    const { baseMs, capMs } = options as CappedBackoff;
    return cappedBackoffMs(attemptsMade, baseMs, capMs);
  },
};

/** Bull's name for unnamed jobs; every job of ours carries it. */
const JOB_NAME = '__default__';

/** Settings of {@link BullJobQueue}. */
export interface BullJobQueueOptions {
  redisUrl: string;
  /** Redis key prefix (Bull's default is "bull"). */
  prefix?: string;
  /**
   * Stalled-job detection: a killed worker's job is re-run once its lock (lockDuration)
   * expired and a stalled check (stalledInterval) ran. Defaults: Bull's 30 s / 30 s (the
   * factory passes QUEUE_LOCK_SETTINGS, 4 s / 2 s), with maxStalledCount 3 so a job survives a
   * few rolling restarts before counting as failed.
   */
  settings?: Pick<Bull.AdvancedSettings, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;
  /** Ready-made queues by name (e.g. injected by @nestjs/bull); others are created on demand. */
  queues?: ReadonlyMap<string, Bull.Queue>;
  /** Told about queue errors (Redis reconnects and the like), for logging. */
  onError?: (error: Error, queue: string) => void;
}

/**
 * JobQueue on Bull (Redis): jobId dedupe, `attempts` with capped exponential backoff, finished jobs
 * kept for the dedupe window and then removed, stalled jobs of dead workers re-run.
 */
export class BullJobQueue implements JobQueue {
  private readonly queues = new Map<string, Bull.Queue>();
  private readonly created = new Set<Bull.Queue>();

  constructor(private readonly options: BullJobQueueOptions) {
    recogniseRedisOutages(); // Bull's clients are ioredis clients
    for (const [name, q] of options.queues ?? []) this.queues.set(name, q);
  }

  async add<T>(queue: string, payload: T, opts: JobOptions = {}): Promise<string> {
    // Always name the job: Bull takes a string first argument for a job name, not a payload.
    const job = await this.queue(queue).add(JOB_NAME, payload, this.jobOptions(opts));
    return String(job.id);
  }

  async addBulk<T>(queue: string, jobs: readonly BulkJob<T>[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const added = await this.queue(queue).addBulk(
      jobs.map((j) => ({ name: JOB_NAME, data: j.payload, opts: this.jobOptions(j.opts ?? {}) })),
    );
    return added.map((j) => String(j.id));
  }

  async process<T>(
    queue: string,
    concurrency: number,
    handler: JobHandler<T>,
    onFailed?: JobFailedHook<T>,
  ): Promise<void> {
    const q = this.queue(queue);
    await q.isReady();
    const view = (job: Bull.Job, attempt: number): QueuedJob<T> => ({
      id: String(job.id),
      queue,
      payload: job.data as T,
      attempt,
    });
    if (onFailed) {
      // Bull emits 'failed' after every failed attempt; only the last one is final.
      q.on('failed', (job: Bull.Job, err: Error) => {
        if (job.attemptsMade >= (job.opts.attempts ?? 1))
          onFailed(view(job, job.attemptsMade), err);
      });
    }
    // process() resolves only when the queue closes, so it is not awaited here.
    q.process(JOB_NAME, Math.max(1, concurrency), (job: Bull.Job) =>
      handler(view(job, job.attemptsMade + 1)),
    ).catch(() => undefined); // errors also reach the queue's 'error' event
  }

  /** Removes every job of the queues this instance created (test and tooling clean-up). */
  async obliterateCreated(): Promise<void> {
    for (const q of this.created) await q.obliterate({ force: true });
  }

  /** Asks Redis through the connection of any queue in use (or a dedicated one). */
  async ping(): Promise<void> {
    const q = this.queues.values().next().value ?? this.queue(PING_QUEUE);
    await q.client.ping();
  }

  async close(): Promise<void> {
    // Waits for active jobs; injected queues belong to their creator (Nest closes them).
    await Promise.all([...this.created].map((q) => q.close()));
    this.created.clear();
  }

  private jobOptions(opts: JobOptions): Bull.JobOptions {
    return {
      jobId: opts.jobId,
      attempts: Math.max(1, opts.attempts ?? DEFAULT_ATTEMPTS),
      backoff: {
        type: CAPPED,
        options: {
          baseMs: opts.backoffMs ?? DEFAULT_BACKOFF_MS,
          capMs: opts.backoffCapMs ?? DEFAULT_BACKOFF_CAP_MS,
        } satisfies CappedBackoff,
      },
      // Kept for the dedupe window: re-adding a finished jobId within it is a no-op.
      removeOnComplete: opts.forgetWhenDone ? true : { age: KEEP_COMPLETED_SECONDS },
      removeOnFail: opts.forgetWhenDone ? true : { age: KEEP_FAILED_SECONDS },
    };
  }

  private queue(name: string): Bull.Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Bull(name, this.options.redisUrl, {
        prefix: this.options.prefix,
        settings: {
          maxStalledCount: 3,
          ...this.options.settings,
          backoffStrategies: BACKOFF_STRATEGIES,
        },
      });
      // Without a listener an 'error' (e.g. Redis reconnecting) would crash the process.
      q.on('error', (err: Error) => this.options.onError?.(err, name));
      this.queues.set(name, q);
      this.created.add(q);
    }
    return q;
  }
}
