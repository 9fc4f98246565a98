import { BATCH_VERDICTS, type BatchJob, type BatchJobSummary } from '@verity/contracts';
import { signDownload } from '../signing';
import type { BatchJobRecord } from './batch-job.record';

/** How result URLs are made. */
export interface ResultUrlOptions {
  /** PUBLIC_URL, else the base URL the job was created through. */
  baseUrl: string;
  secret: string;
  ttlSeconds: number;
  nowSeconds: number;
}

/** The signed download address of a job's file (its result, or a failed job's partial file). */
export function resultUrl(jobId: string, options: ResultUrlOptions): string {
  const sig = signDownload(jobId, options.nowSeconds + options.ttlSeconds, options.secret);
  const base = options.baseUrl.replace(/\/+$/, '');
  return `${base}/v1/batch/${encodeURIComponent(jobId)}/download?sig=${sig}`;
}

/**
 * The rows a caller is told are processed: every row once the job is done; while it runs, the
 * rows of its recorded chunks or, when more, the progress reported inside chunks being scored
 * (progress_rows, which never goes back); once it failed, the rows of its recorded chunks, the
 * ones it stays charged for.
 */
export function processedRowsOf(job: BatchJobRecord): number {
  switch (job.status) {
    case 'done':
      return job.totalRows;
    case 'failed':
      return job.processedRows;
    case 'queued':
    case 'processing':
      return Math.max(job.processedRows, job.progressRows);
  }
}

/** Whether the job has a file to download: its result once done, its partial file once failed. */
export function hasDownload(job: BatchJobRecord): boolean {
  switch (job.status) {
    case 'done':
      return true;
    case 'failed':
      return job.partialKey !== null;
    case 'queued':
    case 'processing':
      return false;
  }
}

/**
 * The BatchJob of docs/api.md; `result_url` is freshly signed when the job is done, else null,
 * and `partial_result_url` (the same signed link) when it failed with a partial file of its
 * scored rows, else null; `error` only when it failed (jobs failed before the reason was
 * recorded say `internal_error`).
 */
export function toBatchJob(job: BatchJobRecord, urls: ResultUrlOptions | null): BatchJob {
  const url = hasDownload(job) && urls ? resultUrl(job.id, urls) : null;
  const body: BatchJob = {
    id: job.id,
    status: job.status,
    type: job.type,
    total_rows: job.totalRows,
    processed_rows: processedRowsOf(job),
    result_url: job.status === 'done' ? url : null,
    partial_result_url: job.status === 'failed' ? url : null,
    created_at: job.createdAt.toISOString(),
    file_name: job.fileName,
    summary: summaryOf(job),
  };
  if (job.countryHint !== null) body.country_hint = job.countryHint;
  if (job.countryColumn !== null) body.country_column = job.countryColumn + 1;
  if (job.status === 'failed') {
    body.error = {
      code: job.failureCode ?? 'internal_error',
      message: job.failureMessage ?? 'the job failed; unprocessed rows were refunded',
    };
  }
  return body;
}

/**
 * The stored summary (set when the job ended) with every verdict of the job's type, in
 * BATCH_VERDICTS' order; null while the job runs and when none was stored.
 */
export function summaryOf(job: BatchJobRecord): BatchJobSummary | null {
  const stored = job.summary;
  if (stored === null) return null;
  const summary: BatchJobSummary = {};
  for (const verdict of BATCH_VERDICTS[job.type]) summary[verdict] = stored[verdict] ?? 0;
  return summary;
}
