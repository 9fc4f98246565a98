import { randomUUID } from 'node:crypto';
import { cappedBackoffMs } from '@verity/common';
import type {
  BulkJob,
  JobFailedHook,
  JobHandler,
  JobOptions,
  JobQueue,
} from '../ports/job-queue.port';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_CAP_MS,
  DEFAULT_BACKOFF_MS,
  KEEP_COMPLETED_SECONDS,
  KEEP_FAILED_SECONDS,
} from './job-retention';

interface MemoryJob {
  id: string;
  json: string;
  attempts: number;
  backoffMs: number;
  backoffCapMs: number;
  attempt: number;
  forgetWhenDone: boolean;
}

interface Worker {
  concurrency: number;
  handler: JobHandler<unknown>;
  onFailed?: JobFailedHook<unknown>;
  active: number;
}

/** One named queue: waiting jobs, known ids (for dedupe) and its worker. */
class MemoryQueueState {
  readonly waiting: MemoryJob[] = [];
  /** jobId → time (ms) until which re-adding it is a no-op; Infinity while queued or running. */
  readonly known = new Map<string, number>();
  worker?: Worker;
}

/**
 * In-process JobQueue with Bull's rules: jobId dedupe, exponential backoff on timers,
 * `onFailed` after the last attempt. Jobs live only as long as the process.
 */
export class MemoryJobQueue implements JobQueue {
  private readonly queues = new Map<string, MemoryQueueState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  async add<T>(queue: string, payload: T, opts: JobOptions = {}): Promise<string> {
    const [id] = await this.addBulk(queue, [{ payload, opts }]);
    return id;
  }

  async addBulk<T>(queue: string, jobs: readonly BulkJob<T>[]): Promise<string[]> {
    await Promise.resolve();
    if (this.closed) throw new Error('job queue is closed');
    const q = this.state(queue);
    const now = Date.now();
    const ids = jobs.map(({ payload, opts = {} }) => {
      const id = opts.jobId ?? randomUUID();
      const until = q.known.get(id);
      if (until !== undefined && until > now) return id;
      q.known.set(id, Infinity);
      q.waiting.push({
        id,
        // Through JSON, as through Redis: the handler never shares objects with the producer.
        json: JSON.stringify(payload),
        attempts: Math.max(1, opts.attempts ?? DEFAULT_ATTEMPTS),
        backoffMs: opts.backoffMs ?? DEFAULT_BACKOFF_MS,
        backoffCapMs: opts.backoffCapMs ?? DEFAULT_BACKOFF_CAP_MS,
        attempt: 1,
        forgetWhenDone: opts.forgetWhenDone ?? false,
      });
      return id;
    });
    this.prune(q, now);
    this.pump(queue);
    return ids;
  }

  async process<T>(
    queue: string,
    concurrency: number,
    handler: JobHandler<T>,
    onFailed?: JobFailedHook<T>,
  ): Promise<void> {
    await Promise.resolve();
    const q = this.state(queue);
    if (q.worker) throw new Error(`queue ${queue} already has a processor`);
    q.worker = {
      concurrency: Math.max(1, concurrency),
      handler: handler as JobHandler<unknown>,
      onFailed: onFailed as JobFailedHook<unknown> | undefined,
      active: 0,
    };
    this.pump(queue);
  }

  ping(): Promise<void> {
    return this.closed ? Promise.reject(new Error('job queue is closed')) : Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.inFlight]);
  }

  private state(queue: string): MemoryQueueState {
    let q = this.queues.get(queue);
    if (!q) {
      q = new MemoryQueueState();
      this.queues.set(queue, q);
    }
    return q;
  }

  private pump(queue: string): void {
    const q = this.state(queue);
    const w = q.worker;
    while (!this.closed && w && w.active < w.concurrency && q.waiting.length > 0) {
      const job = q.waiting.shift()!;
      w.active++;
      const run = this.run(queue, q, w, job).finally(() => {
        w.active--;
        this.inFlight.delete(run);
        this.pump(queue);
      });
      this.inFlight.add(run);
    }
  }

  private async run(queue: string, q: MemoryQueueState, w: Worker, job: MemoryJob): Promise<void> {
    const view = {
      id: job.id,
      queue,
      payload: JSON.parse(job.json) as unknown,
      attempt: job.attempt,
    };
    try {
      await w.handler(view);
      this.remember(q, job, KEEP_COMPLETED_SECONDS);
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      if (job.attempt < job.attempts) {
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            q.waiting.push({ ...job, attempt: job.attempt + 1 });
            this.pump(queue);
          },
          cappedBackoffMs(job.attempt, job.backoffMs, job.backoffCapMs),
        );
        this.timers.add(timer);
        return;
      }
      this.remember(q, job, KEEP_FAILED_SECONDS);
      w.onFailed?.(view, error);
    }
  }

  /** Keeps a finished job's id for the dedupe window, or forgets it at once (`forgetWhenDone`). */
  private remember(q: MemoryQueueState, job: MemoryJob, seconds: number): void {
    if (job.forgetWhenDone) q.known.delete(job.id);
    else q.known.set(job.id, Date.now() + seconds * 1000);
  }

  /** Forgets expired ids once the map grows, so dedupe memory stays bounded by the window. */
  private prune(q: MemoryQueueState, now: number): void {
    if (q.known.size < 10_000) return;
    for (const [id, until] of q.known) if (until <= now) q.known.delete(id);
  }
}
