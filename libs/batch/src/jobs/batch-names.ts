import type { Provider } from '@nestjs/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';

/** Queue, topic and consumer-group names of the batch pipeline. */
export interface BatchNames {
  /** Bull queue that hands a new job to the splitter. */
  ingestQueue: string;
  /** Bull queue of webhook deliveries. */
  webhooksQueue: string;
  /** Row chunks from the splitter to the scorers. */
  chunksTopic: string;
  /**
   * SMTP chunks held for their next retry round (docs/models/email.md, "Retry window"): apart
   * from the chunks topic so that a chunk waiting for its round delays only other such chunks.
   */
  chunkRetriesTopic: string;
  /** Split and chunk-completion reports to the assembler, spread over partitions (any order). */
  progressTopic: string;
  /** Consumer group of the scorers on the chunks topic. */
  scorerGroup: string;
  /** Consumer group of the scorers on the chunk-retries topic (one group per topic). */
  scorerRetryGroup: string;
  /** Consumer group of the assembler on the progress topic. */
  assemblerGroup: string;
}

/** The names, prefixed by BATCH_NAMESPACE when set (shared Kafka/Redis between installations). */
export function batchNames(namespace?: string): BatchNames {
  const p = namespace ? `${namespace}.` : '';
  return {
    ingestQueue: `${p}ingest`,
    webhooksQueue: `${p}webhooks`,
    chunksTopic: `${p}verity.batch.chunks`,
    chunkRetriesTopic: `${p}verity.batch.chunk-retries`,
    progressTopic: `${p}verity.batch.progress`,
    scorerGroup: `${p}verity-scorers`,
    scorerRetryGroup: `${p}verity-scorer-retries`,
    assemblerGroup: `${p}verity-assembler`,
  };
}

/** Injection token of the process's BatchNames, built once from BATCH_NAMESPACE. */
export const BATCH_NAMES = Symbol.for('verity.batch.names');

/** Provides BATCH_NAMES from the configuration. */
export const batchNamesProvider: Provider = {
  provide: BATCH_NAMES,
  inject: [BATCH_CONFIG],
  useFactory: (config: BatchConfig): BatchNames => batchNames(config.BATCH_NAMESPACE),
};

/** Where a job's upload is kept until the job ends. */
export function uploadKey(jobId: string): string {
  return `uploads/${jobId}.csv`;
}

/** Prefix of everything stored for a job's result (its parts and the result file). */
export function resultsPrefix(jobId: string): string {
  return `results/${jobId}/`;
}

/** Prefix of a job's scored chunk parts. */
export function partsPrefix(jobId: string): string {
  return `${resultsPrefix(jobId)}parts/`;
}

/** The scored rows of one chunk; zero-padded so a listing sorts in chunk order. */
export function partKey(jobId: string, chunkNo: number): string {
  return `${partsPrefix(jobId)}${String(chunkNo).padStart(8, '0')}.csv`;
}

/** The assembled result file of a job. */
export function resultKey(jobId: string): string {
  return `${resultsPrefix(jobId)}result.csv`;
}

/** The partial result file of a failed job: its scored rows (END_EFFECTS, `partial`). */
export function partialKey(jobId: string): string {
  return `${resultsPrefix(jobId)}partial.csv`;
}

/** Queue job ids: the job id makes re-enqueueing the same job a no-op (dedupe). */
export const ingestJobId = (jobId: string): string => `split-${jobId}`;
/** A stalled job's recovery: one at a time per job, forgotten when done (`forgetWhenDone`). */
export const recoveryJobId = (jobId: string): string => `recover-${jobId}`;
export const webhookJobId = (jobId: string): string => `webhook-${jobId}`;
