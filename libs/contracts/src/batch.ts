export const BATCH_TYPES = ['email', 'phone', 'ip'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

export const BATCH_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/**
 * Why a job failed (`BatchJob.error`), in the vocabulary of the API's error codes:
 * `unprocessable` — the file cannot be processed as uploaded (retrying the same file fails
 * the same way); `internal_error` — the service could not process it (the upload was lost, a
 * chunk failed on every attempt); `service_unavailable` — a dependency stayed unreachable for
 * longer than the job may wait. Unprocessed rows are refunded in every case.
 */
export const BATCH_ERROR_CODES = [
  'unprocessable',
  'internal_error',
  'service_unavailable',
] as const;
export type BatchErrorCode = (typeof BATCH_ERROR_CODES)[number];

/** The reason of a failed job, shaped like the API's error body. */
export interface BatchJobError {
  code: BatchErrorCode;
  message: string;
}

/** BatchJob as the spec shows it, plus `error` (added within v1: present only when failed). */
export interface BatchJob {
  id: string;
  status: BatchStatus;
  type: BatchType;
  total_rows: number;
  processed_rows: number;
  result_url: string | null;
  created_at: string;
  /** Present only when status is failed. */
  error?: BatchJobError;
}
