import { BATCH_CHECKS } from '@verity/ports';

/**
 * The scorer reads chunks from Kafka, the job from the database, scores with the data sets and
 * writes parts to the blob store: all of them decide its readiness. Only the job queue (Redis),
 * which it never uses, is merely reported.
 */
export const SCORER_REPORT_ONLY: readonly string[] = [BATCH_CHECKS.jobQueue];
