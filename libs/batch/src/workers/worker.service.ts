import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { BatchWorker, VerityMetrics } from '@verity/observability';
import type { Subscription } from '@verity/ports';
import type { BatchOutages } from './batch-outages';
import { startConsumer, type ConsumerOptions } from './consumer';
import type { OutageWatch } from './outage-watch';

/**
 * What every batch worker service (splitter, scorer, assembler) opens with: a log named after
 * the worker, its watch of dependency outages (waited out for `budgetMs`, BATCH_OUTAGE_BUDGET_MS),
 * and the topics it consumes, which it stops at shutdown: fetching stops, the messages in
 * flight finish and are committed.
 */
export abstract class WorkerService implements BeforeApplicationShutdown {
  protected readonly log: Logger;
  protected readonly outage: OutageWatch;
  private readonly subscriptions: Subscription[] = [];

  protected constructor(
    worker: BatchWorker,
    outages: BatchOutages,
    budgetMs: number,
    protected readonly metrics: VerityMetrics | null,
  ) {
    this.log = new Logger(worker.charAt(0).toUpperCase() + worker.slice(1));
    this.outage = outages.watch({ worker, budgetMs, log: this.log, metrics });
  }

  /** Joins a topic (startConsumer) with this worker's log, metrics and outage watch. */
  protected async consume(
    options: Omit<ConsumerOptions, 'metrics' | 'log' | 'outage'>,
  ): Promise<void> {
    const subscription = await startConsumer({
      ...options,
      metrics: this.metrics,
      log: this.log,
      outage: this.outage,
    });
    this.subscriptions.push(subscription);
  }

  /** Stops every consumer: in-flight messages finish and are committed. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }
}
