import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobHousekeeping,
  BatchOutages,
  JobLifecycle,
  ingestJobId,
  recoveryJobId,
} from '@verity/batch';
import { counted } from '@verity/common';
import { JOB_QUEUE, type JobQueue } from '@verity/ports';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import { SPLIT_ATTEMPTS, type IngestPayload } from '../splitter/splitter.service';
import { PeriodicTask } from './periodic-task';

/**
 * No accepted job is stranded (docs/batch.md, "Recovery"):
 * - at start, every queued or processing job is handed to the splitter again (nothing committed
 *   is lost between the API's commit and its enqueue, or with an in-process queue or row bus
 *   that died with its process; the splitter publishes what was not scored);
 * - every BATCH_RECOVERY_INTERVAL_MS, jobs queued for longer than that are handed over again,
 *   and processing jobs without progress for BATCH_STALL_MS are recovered: every chunk not
 *   recorded as scored is published again. A job stalled again after BATCH_STALL_RECOVERIES
 *   recoveries, while no job made progress and no worker waited on an outage, fails with its
 *   unscored rows refunded;
 * - ended jobs whose end effects are still due BATCH_STALL_MS after the end (the process that
 *   ended them died or failed midway) get them run again (JobLifecycle.replayDueEnds).
 * Queue ids derive from the job id, so none of this enqueues a job twice.
 */
@Injectable()
export class JobRecoveryService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('JobRecovery');
  private readonly task = new PeriodicTask(this.log, 'recovery sweep');

  constructor(
    private readonly housekeeping: BatchJobHousekeeping,
    private readonly lifecycle: JobLifecycle,
    private readonly outages: BatchOutages,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.handOver(await this.housekeeping.findUnfinished());
    this.task.start(this.config.BATCH_RECOVERY_INTERVAL_MS, () => this.sweep());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /**
   * One periodic pass: queued jobs handed over again, stalled jobs recovered or failed, end
   * effects left undone run again.
   */
  async sweep(): Promise<void> {
    await this.handOver(await this.housekeeping.findQueued(this.config.BATCH_RECOVERY_INTERVAL_MS));
    // Nothing advances while a dependency is down: that is waiting, not a stall.
    if (this.outages.waiting) return;
    await this.recoverStalled();
    const replayed = await this.lifecycle.replayDueEnds(this.config.BATCH_STALL_MS);
    if (replayed > 0)
      this.log.warn(`ran the end effects of ${counted(replayed, 'ended job')} again`);
  }

  private async recoverStalled(): Promise<void> {
    const stalled = await this.housekeeping.claimStalled(
      this.config.BATCH_STALL_MS,
      this.config.BATCH_STALL_RECOVERIES,
    );
    const recover: string[] = [];
    for (const job of stalled) {
      if (job.exhausted) await this.giveUp(job.id, job.stallRecoveries);
      else recover.push(job.id);
    }
    if (recover.length === 0) return;
    await this.queue.addBulk<IngestPayload>(
      this.names.ingestQueue,
      recover.map((jobId) => ({
        payload: { jobId, recovery: true },
        opts: {
          jobId: recoveryJobId(jobId),
          attempts: SPLIT_ATTEMPTS,
          backoffMs: 2_000,
          forgetWhenDone: true,
        },
      })),
    );
    this.log.warn(
      `${counted(recover.length, 'job')} without progress for ${this.config.BATCH_STALL_MS} ms: publishing their unscored chunks again`,
    );
  }

  /** Hands jobs to the splitter (a no-op for one already queued, running or recently split). */
  private async handOver(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.queue.addBulk<IngestPayload>(
      this.names.ingestQueue,
      ids.map((jobId) => ({
        payload: { jobId },
        opts: { jobId: ingestJobId(jobId), attempts: SPLIT_ATTEMPTS, backoffMs: 2_000 },
      })),
    );
    this.log.log(`handed ${counted(ids.length, 'unfinished job')} to the splitter`);
  }

  /** Fails a job still stalled after its `recoveries` (the count stored on the job). */
  private async giveUp(jobId: string, recoveries: number): Promise<void> {
    await this.lifecycle.fail(
      jobId,
      `no progress after ${recoveries} recoveries, each followed by ${this.config.BATCH_STALL_MS} ms without progress`,
      {
        code: 'internal_error',
        message: `the job stopped making progress and could not be recovered`,
      },
      () => {
        this.metrics?.batchRecoveries.inc({ outcome: 'failed' });
        this.log.error(`job ${jobId} failed: no progress after ${recoveries} recoveries`);
      },
    );
  }
}
