import { Inject, Injectable, Logger } from '@nestjs/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import { BLOB_STORE, JOB_QUEUE, type BlobStore, type JobQueue } from '@verity/ports';
import { enqueueWebhook } from '../../webhooks/webhook.queue';
import type { BatchJobRecord } from '../batch-job.record';
import {
  BATCH_NAMES,
  partsPrefix,
  resultsPrefix,
  webhookJobId,
  type BatchNames,
} from '../batch-names';
import { BatchProgressRepository } from '../batch-progress.repository';
import type { EndStatus } from '../job-states';

/** A job that has ended. */
export type EndedJob = BatchJobRecord & { status: EndStatus };

/** What end effects work with. */
export interface EndEffectTools {
  blobs: BlobStore;
  queue: JobQueue;
  progress: BatchProgressRepository;
  config: BatchConfig;
  names: BatchNames;
}

/**
 * One end effect: what it does after each way a job can end. It must be idempotent: the
 * effects are run again after a crash, a failure midway or a repeated cancel.
 */
export type EndEffect = {
  readonly [S in EndStatus]: (job: EndedJob, tools: EndEffectTools) => Promise<void>;
};

const dropUpload = (job: EndedJob, t: EndEffectTools) => t.blobs.delete(job.uploadKey);
const forgetProgress = (job: EndedJob, t: EndEffectTools) => t.progress.forget(job.id);
/** The webhook's queue job id derives from the job id: a repeat within the dedupe window is a no-op. */
const notify = async (job: EndedJob, t: EndEffectTools): Promise<void> => {
  if (!job.webhookUrl) return;
  await enqueueWebhook(t.queue, t.names, t.config, { jobId: job.id }, webhookJobId(job.id));
};

/**
 * Every end effect, run in this order after every end, whoever ended the job (JobLifecycle).
 * Keyed by the end statuses: a new end status is a compile error here until every effect says
 * what it does then; a new effect (a partial result file) is one more entry, which must say
 * what it does after each end.
 */
export const END_EFFECTS = {
  /**
   * The chunk parts, and the SMTP retry window's held lines under them. A failed job keeps
   * nothing of its result: an assembly that a cancel cut short may have written the file.
   */
  results: {
    done: (job, t) => t.blobs.deletePrefix(partsPrefix(job.id)),
    failed: (job, t) => t.blobs.deletePrefix(resultsPrefix(job.id)),
  },
  upload: { done: dropUpload, failed: dropUpload },
  /** The chunks' running counts (the job's progress_rows stays). */
  progress: { done: forgetProgress, failed: forgetProgress },
  webhook: { done: notify, failed: notify },
} satisfies Record<string, EndEffect>;

/** Runs END_EFFECTS for an ended job. */
@Injectable()
export class JobEndEffects {
  private readonly log = new Logger('JobEndEffects');
  private readonly tools: EndEffectTools;

  constructor(
    progress: BatchProgressRepository,
    @Inject(BLOB_STORE) blobs: BlobStore,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(BATCH_CONFIG) config: BatchConfig,
    @Inject(BATCH_NAMES) names: BatchNames,
  ) {
    this.tools = { blobs, queue, progress, config, names };
  }

  async run(job: EndedJob): Promise<void> {
    const effects: EndEffect[] = Object.values(END_EFFECTS);
    for (const effect of effects) await effect[job.status](job, this.tools);
    this.log.log(
      `job ${job.id} ${job.status}: cleaned up${job.webhookUrl ? ', webhook enqueued' : ''}`,
    );
  }
}
