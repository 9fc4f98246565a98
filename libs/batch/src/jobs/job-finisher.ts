import { Inject, Injectable, Logger } from '@nestjs/common';
import { enqueueWebhook } from '../webhooks/webhook.queue';
import type { BatchJobRecord } from './batch-job.record';
import { BatchProgressRepository } from './batch-progress.repository';
import {
  BATCH_NAMES,
  partsPrefix,
  resultsPrefix,
  webhookJobId,
  type BatchNames,
} from './batch-names';
import { BLOB_STORE, JOB_QUEUE, type BlobStore, type JobQueue } from '@verity/ports';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/**
 * What follows a job's end (done, failed or cancelled), idempotent so any replay may run it again:
 * drop the chunk parts (and, for a failed job, any result file), the upload and the chunks'
 * running counts, and enqueue the webhook (its queue job id is derived from the job id, so a
 * second enqueue within the queue's dedupe window is a no-op).
 */
@Injectable()
export class JobFinisher {
  private readonly log = new Logger('JobFinisher');

  constructor(
    private readonly progress: BatchProgressRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
  ) {}

  async afterEnd(job: BatchJobRecord): Promise<void> {
    if (job.status !== 'done' && job.status !== 'failed') return;
    // A failed job keeps nothing of its result: an assembly that a cancel cut short may have
    // written the file already.
    await this.blobs.deletePrefix(
      job.status === 'failed' ? resultsPrefix(job.id) : partsPrefix(job.id),
    );
    await this.blobs.delete(job.uploadKey);
    await this.progress.forget(job.id);
    if (job.webhookUrl) {
      await enqueueWebhook(
        this.queue,
        this.names,
        this.config,
        { jobId: job.id },
        webhookJobId(job.id),
      );
    }
    this.log.log(
      `job ${job.id} ${job.status}: cleaned up${job.webhookUrl ? ', webhook enqueued' : ''}`,
    );
  }
}
