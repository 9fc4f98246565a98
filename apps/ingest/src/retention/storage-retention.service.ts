import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { counted } from '@verity/common';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import { BatchJobHousekeeping, resultsPrefix } from '@verity/batch';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import { PeriodicTask } from '../recovery/periodic-task';

/** How often ingest looks for expired results and abandoned uploads. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/**
 * An upload still incomplete this long after it started belongs to no live writer: an API
 * request is cut after BODY_IDLE_TIMEOUT_MS without data, so only a killed process leaves
 * one. A day is the usual S3 lifecycle rule (AbortIncompleteMultipartUpload after 1 day).
 */
export const INCOMPLETE_UPLOAD_MAX_AGE_MS = 24 * 3_600_000;
/** Jobs purged per query. */
const PURGE_BATCH = 100;

/** What one sweep did. */
export interface RetentionSweep {
  purgedJobs: number;
  abortedUploads: number;
}

/**
 * Storage lifecycle (docs/batch.md, "Storage lifecycle"): every 10 minutes, deletes what is
 * stored for jobs that ended more than RESULT_RETENTION_DAYS ago (the result file and any part
 * a late scorer wrote) and marks them purged, and aborts uploads left incomplete for a day
 * (an API killed mid-upload). Every step is idempotent, so several ingest replicas may sweep
 * at once. Uploads themselves are deleted when the job ends (the end effects, END_EFFECTS).
 */
@Injectable()
export class StorageRetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('StorageRetention');
  private readonly task = new PeriodicTask(this.log, 'storage sweep');

  constructor(
    private readonly housekeeping: BatchJobHousekeeping,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(SWEEP_INTERVAL_MS, () => this.sweep());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** One sweep as of `now` (injectable so tests need not wait days). */
  async sweep(now = new Date()): Promise<RetentionSweep> {
    const cutoff = new Date(now.getTime() - this.config.RESULT_RETENTION_DAYS * 86_400_000);
    let purgedJobs = 0;
    for (;;) {
      const jobs = await this.housekeeping.findExpired(cutoff, PURGE_BATCH);
      for (const job of jobs) {
        await this.blobs.deletePrefix(resultsPrefix(job.id));
        await this.blobs.delete(job.uploadKey);
        await this.housekeeping.markPurged(job.id);
      }
      purgedJobs += jobs.length;
      if (jobs.length < PURGE_BATCH) break;
    }
    const { aborted } = await this.blobs.abortIncompleteUploads(
      '',
      new Date(now.getTime() - INCOMPLETE_UPLOAD_MAX_AGE_MS),
    );
    if (purgedJobs > 0 || aborted > 0) {
      this.log.log(
        `deleted the stored files of ${counted(purgedJobs, 'expired job')}, aborted ${counted(aborted, 'incomplete upload')}`,
      );
    }
    return { purgedJobs, abortedUploads: aborted };
  }
}
