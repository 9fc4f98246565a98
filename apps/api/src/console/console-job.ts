import { processedRowsOf, summaryOf, toBatchJob, type BatchJobRecord } from '@verity/batch';
import { CREDIT_COST, type ConsoleJob } from '@verity/contracts';

/** A batch job as the console lists it (the contracts' ConsoleJob). */
export function consoleJob(job: BatchJobRecord): ConsoleJob {
  const error = job.status === 'failed' ? toBatchJob(job, null).error : undefined;
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    file_name: job.fileName,
    total_rows: job.totalRows,
    processed_rows: processedRowsOf(job),
    webhook_url: job.webhookUrl,
    failure_reason: error?.message ?? null,
    failure_code: error?.code ?? null,
    refunded_credits: job.refundedRows * CREDIT_COST.batch_row,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt ? job.finishedAt.toISOString() : null,
    summary: summaryOf(job),
  };
}
