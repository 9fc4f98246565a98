import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@nestjs/common';
import { InfraOutage, infraOutageOf, jitteredBackoffMs } from '@verity/common';
import type { BatchWorker, VerityMetrics } from '@verity/observability';
import { REDELIVERY_BASE_MS, REDELIVERY_MAX_MS } from '@verity/ports';

/** Settings of a {@link OutageWatch}. */
export interface OutageWatchOptions {
  worker: BatchWorker;
  /** How long an outage may last without any progress before its errors count as failures. */
  budgetMs: number;
  log: Logger;
  metrics: VerityMetrics | null;
  now?: () => number;
}

/**
 * A batch worker's view of its dependencies. A handler that failed because PostgreSQL, S3,
 * Redis or Kafka is unreachable (`infraOutageOf`: as its adapter tells) starts an outage; the next handler
 * that succeeds ends it. An outage is logged once when it begins and once when it ends, with
 * `verity_batch_dependency_outage{worker}` at 1 in between, whatever the number of retries.
 * While it lasts less than the budget, outage errors are waited out rather than counted as
 * failed attempts; after that they count, so a dependency that never comes back still ends
 * in the ordinary failure path.
 */
export class OutageWatch {
  private since: number | null = null;
  private readonly now: () => number;
  private readonly listeners: ((waiting: boolean) => void)[] = [];

  constructor(private readonly options: OutageWatchOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Tells `listener` when waiting begins (true) and ends (false): pause and resume a consumer. */
  listen(listener: (waiting: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** True while an outage is being waited out. */
  get waiting(): boolean {
    return this.since !== null;
  }

  /**
   * Whether `error` is an outage to wait out (retry without counting an attempt): true for an
   * infrastructure error while no outage, or a younger one than the budget, is under way.
   */
  waitsOut(error: unknown): boolean {
    if (infraOutageOf(error) === null) return false;
    return this.since === null || this.now() - this.since < this.options.budgetMs;
  }

  /**
   * Runs `work` until it succeeds, waiting out outages in place with the redelivery backoff
   * (full jitter); any other error, or an outage past the budget, is thrown. For work that is
   * not a bus message (a queued split).
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await work();
        this.succeeded();
        return result;
      } catch (error) {
        if (!this.waitsOut(error)) throw error;
        this.failed(error);
      }
      await sleep(jitteredBackoffMs(attempt, REDELIVERY_BASE_MS, REDELIVERY_MAX_MS));
    }
  }

  /** Reports a failed handler: an infrastructure error begins an outage if none is under way. */
  failed(error: unknown): void {
    const dependency = infraOutageOf(error);
    if (dependency === null || this.since !== null) return;
    this.since = this.now();
    const { worker, metrics, log, budgetMs } = this.options;
    metrics?.batchDependencyOutage.set({ worker }, 1);
    metrics?.batchDependencyOutages.inc({ worker, dependency });
    log.warn(
      `dependency outage began (${dependency}: ${describe(error)}): ${worker} paused, retrying ` +
        `with backoff for up to ${Math.round(budgetMs / 1000)} s without progress`,
    );
    for (const listener of this.listeners) listener(true);
  }

  /** Reports a handler that succeeded: an outage under way has ended. */
  succeeded(): void {
    if (this.since === null) return;
    const lasted = this.now() - this.since;
    this.since = null;
    const { worker, metrics, log } = this.options;
    metrics?.batchDependencyOutage.set({ worker }, 0);
    log.log(`dependency outage ended after ${(lasted / 1000).toFixed(1)} s: ${worker} resumed`);
    for (const listener of this.listeners) listener(false);
  }
}

/**
 * An error's type and code for the log (its message may be long; the type is what matters);
 * for an adapter's InfraOutage, those of the error it carries.
 */
function describe(error: unknown): string {
  if (error instanceof InfraOutage) return describe(error.cause);
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : `${error.name}: ${error.message}`;
}
