import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { batchNames, type BatchNames, BatchJobHousekeeping, ingestJobId } from '@verity/batch';
import { JOB_QUEUE, type JobQueue } from '@verity/ports';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { SPLIT_ATTEMPTS } from '../splitter/splitter.service';
import { PeriodicTask } from './periodic-task';

/**
 * Nothing committed is lost between the API's commit and its enqueue, or with an in-process
 * queue that died with its process: at start, every queued or processing job is handed to the
 * splitter again, and then every BATCH_RECOVERY_INTERVAL_MS the queued ones and those without
 * progress for BATCH_STALL_MS. The queue job id is derived from the job id, so a job that is
 * still queued, running or recently split is not enqueued twice; a re-split is idempotent.
 */
@Injectable()
export class JobRecoveryService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('JobRecovery');
  private readonly task = new PeriodicTask(this.log, 'recovery sweep');

  constructor(
    private readonly housekeeping: BatchJobHousekeeping,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Topic, group and queue names (BATCH_NAMESPACE). */
  private get names(): BatchNames {
    return batchNames(this.config.BATCH_NAMESPACE);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep(0, 0);
    this.task.start(this.config.BATCH_RECOVERY_INTERVAL_MS, () =>
      this.sweep(this.config.BATCH_RECOVERY_INTERVAL_MS, this.config.BATCH_STALL_MS),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** Re-enqueues abandoned jobs; returns how many were handed over. */
  async sweep(queuedMs: number, stallMs: number): Promise<number> {
    const ids = await this.housekeeping.findAbandoned(queuedMs, stallMs);
    if (ids.length === 0) return 0;
    await this.queue.addBulk(
      this.names.ingestQueue,
      ids.map((jobId) => ({
        payload: { jobId },
        opts: { jobId: ingestJobId(jobId), attempts: SPLIT_ATTEMPTS, backoffMs: 2_000 },
      })),
    );
    this.log.log(`re-enqueued ${ids.length} unfinished job(s)`);
    return ids.length;
  }
}
