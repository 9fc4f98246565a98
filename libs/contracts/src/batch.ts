export const BATCH_TYPES = ['email', 'phone', 'ip'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

export const BATCH_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** BatchJob as the spec shows it. */
export interface BatchJob {
  id: string;
  status: BatchStatus;
  type: BatchType;
  total_rows: number;
  processed_rows: number;
  result_url: string | null;
  created_at: string;
}
