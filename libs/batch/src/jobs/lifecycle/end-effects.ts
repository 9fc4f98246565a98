import { Inject, Injectable, Logger } from '@nestjs/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import {
  BLOB_STORE,
  BlobNotFoundError,
  JOB_QUEUE,
  type BlobStore,
  type JobQueue,
} from '@verity/ports';
import { enqueueWebhook } from '../../webhooks/webhook.queue';
import type { BatchJobRecord } from '../batch-job.record';
import { BatchJobRepository } from '../batch-job.repository';
import { BATCH_NAMES, partsPrefix, resultKey, webhookJobId, type BatchNames } from '../batch-names';
import { BatchProgressRepository } from '../batch-progress.repository';
import type { EndStatus } from '../job-states';
import { resultFile, resultFileFormat } from '../result-file';

/** A job that has ended. */
export type EndedJob = BatchJobRecord & { status: EndStatus };

/** What end effects work with. */
export interface EndEffectTools {
  blobs: BlobStore;
  queue: JobQueue;
  progress: BatchProgressRepository;
  /** The recorded chunks, and the partial file that cannot be written. */
  jobs: BatchJobRepository;
  log: Logger;
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

/**
 * A failed job's scored rows as a file of their own (docs/batch.md, "Partial results"), at the
 * partial key the failure gave the job when rows were scored: the parts of its recorded chunks
 * — the rows it stays charged for, frozen by the failure — in input order under the result
 * file's header, written before the parts are deleted. The upload is atomic, so a file there is
 * whole: a re-run that finds it does nothing, and one that finds the parts gone finds the file
 * written by the run that deleted them.
 */
const keepScoredRows = async (job: EndedJob, t: EndEffectTools): Promise<void> => {
  const key = job.partialKey;
  if (key === null || (await t.blobs.head(key)) !== null) return;
  const chunks = [...(await t.jobs.recordedChunksFrom(job.id, 0))].sort((a, b) => a - b);
  try {
    await t.blobs.upload(key, resultFile(t.blobs, job.id, resultFileFormat(job), chunks));
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    if ((await t.blobs.head(key)) !== null) return; // the run that deleted the parts wrote it
    // A recorded chunk's part is gone and no run kept the rows: there is nothing to deliver,
    // and holding back the other effects (the upload, the webhook) would not bring it back.
    t.log.error(`job ${job.id}: a scored part is missing, no partial result file`);
    await t.jobs.dropPartial(job.id);
  }
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
  /** A failed job's scored rows (`keepScoredRows`); a done job has its result file. */
  partial: { done: () => Promise.resolve(), failed: keepScoredRows },
  /**
   * The chunk parts, and the SMTP retry window's held lines under them. A failed job keeps
   * only its partial file: an assembly that a cancel cut short may have written the result.
   */
  results: {
    done: (job, t) => t.blobs.deletePrefix(partsPrefix(job.id)),
    failed: async (job, t) => {
      await t.blobs.deletePrefix(partsPrefix(job.id));
      await t.blobs.delete(resultKey(job.id));
    },
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
    jobs: BatchJobRepository,
    @Inject(BLOB_STORE) blobs: BlobStore,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(BATCH_CONFIG) config: BatchConfig,
    @Inject(BATCH_NAMES) names: BatchNames,
  ) {
    this.tools = { blobs, queue, progress, jobs, config, names, log: this.log };
  }

  async run(job: EndedJob): Promise<void> {
    const effects: EndEffect[] = Object.values(END_EFFECTS);
    for (const effect of effects) await effect[job.status](job, this.tools);
    this.log.log(
      `job ${job.id} ${job.status}: cleaned up${job.webhookUrl ? ', webhook enqueued' : ''}`,
    );
  }
}
