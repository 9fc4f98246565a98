/** Bull queue that hands a new job to the splitter. */
export const INGEST_QUEUE = 'ingest';
/** Bull queue of webhook deliveries. */
export const WEBHOOKS_QUEUE = 'webhooks';
/** Row chunks from the splitter to the scorers. */
export const CHUNKS_TOPIC = 'verity.batch.chunks';
/** Split and chunk-completion reports to the assembler, keyed by job id (one partition per job). */
export const PROGRESS_TOPIC = 'verity.batch.progress';
/** Consumer group of the scorers on {@link CHUNKS_TOPIC}. */
export const SCORER_GROUP = 'verity-scorers';
/** Consumer group of the assembler on {@link PROGRESS_TOPIC}. */
export const ASSEMBLER_GROUP = 'verity-assembler';

/** Where a job's upload is kept until the job ends. */
export function uploadKey(jobId: string): string {
  return `uploads/${jobId}.csv`;
}

/** Prefix of a job's scored chunk parts. */
export function partsPrefix(jobId: string): string {
  return `results/${jobId}/parts/`;
}

/** The scored rows of one chunk; zero-padded so a listing sorts in chunk order. */
export function partKey(jobId: string, chunkNo: number): string {
  return `${partsPrefix(jobId)}${String(chunkNo).padStart(8, '0')}.csv`;
}

/** The assembled result file of a job. */
export function resultKey(jobId: string): string {
  return `results/${jobId}/result.csv`;
}

/** Queue job ids: the job id makes re-enqueueing the same job a no-op (dedupe). */
export const ingestJobId = (jobId: string): string => `split-${jobId}`;
export const webhookJobId = (jobId: string): string => `webhook-${jobId}`;
