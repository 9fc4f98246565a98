/**
 * How long a finished job's id is remembered for dedupe (Bull: removeOnComplete/removeOnFail
 * by age). Re-adding a jobId within this window is a no-op; after it, the job runs again.
 */
export const KEEP_COMPLETED_SECONDS = 24 * 3600;
export const KEEP_FAILED_SECONDS = 7 * 24 * 3600;
export const DEFAULT_ATTEMPTS = 1;
export const DEFAULT_BACKOFF_MS = 1_000;
export const DEFAULT_BACKOFF_CAP_MS = 3_600_000;
