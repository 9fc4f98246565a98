import { BATCH_CHECKS } from '@verity/ports';

/** The rate-limit store's readiness check (Redis when REDIS_URL is set). */
export const RATE_LIMIT_CHECK = 'rate_limit_store';

/**
 * Checks the API reports but is not taken out of the load balancer for. Its traffic needs the
 * database (keys, credits) and the engines' data sets; Kafka, Redis and S3 serve batch jobs and
 * shared rate limits, and every API pod shares them: leaving the Service for their outage would
 * turn single calls that still work, and batch calls that answer 503 with Retry-After, into
 * refused connections on every pod at once.
 */
export const API_REPORT_ONLY: readonly string[] = [
  BATCH_CHECKS.rowBus,
  BATCH_CHECKS.jobQueue,
  BATCH_CHECKS.blobStore,
  RATE_LIMIT_CHECK,
];
