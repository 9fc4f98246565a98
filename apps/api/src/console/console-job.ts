import { toBatchJob, type BatchJobRecord } from '@verity/batch';
import { CREDIT_COST } from '@verity/contracts';

/** A batch job as the console lists it: the spec's fields plus what went wrong and its refund. */
export interface ConsoleJob {
  id: string;
  type: string;
  status: string;
  total_rows: number;
  processed_rows: number;
  webhook_url: string | null;
  /** The public reason (BatchJob.error.message); the internal detail stays in the log. */
  failure_reason: string | null;
  refunded_credits: number;
  created_at: string;
  finished_at: string | null;
}

export function consoleJob(job: BatchJobRecord): ConsoleJob {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    total_rows: job.totalRows,
    processed_rows: job.status === 'done' ? job.totalRows : job.processedRows,
    webhook_url: job.webhookUrl,
    failure_reason: job.status === 'failed' ? (toBatchJob(job, null).error?.message ?? null) : null,
    refunded_credits: job.refundedRows * CREDIT_COST.batch_row,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}
