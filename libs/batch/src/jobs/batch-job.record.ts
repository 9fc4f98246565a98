import type { BatchErrorCode, BatchStatus, BatchType } from '@verity/contracts';

/** A batch job as stored (libs/database migrations 1732348800000, 1735100000000). */
export interface BatchJobRecord {
  id: string;
  accountId: string;
  /** Null for jobs created before keys were recorded. */
  keyId: string | null;
  type: BatchType;
  status: BatchStatus;
  totalRows: number;
  processedRows: number;
  chunkCount: number | null;
  chunksDone: number;
  webhookUrl: string | null;
  baseUrl: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  uploadKey: string;
  resultKey: string | null;
  refundedRows: number;
  /** Internal detail of a failure (logs, operators); never shown to the customer. */
  failureReason: string | null;
  /** The failure as the customer sees it (`BatchJob.error`). */
  failureCode: BatchErrorCode | null;
  failureMessage: string | null;
  /** Split checkpoint: chunks published (numbered 0 … splitChunks-1) holding rows 0 … splitRows-1. */
  splitChunks: number;
  splitRows: number;
  /** When the retention sweep deleted the job's stored files (result included). */
  storagePurgedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** The row shape `SELECT * FROM batch_jobs` returns through pg. */
export interface BatchJobRow {
  id: string;
  account_id: string;
  key_id: string | null;
  type: BatchType;
  status: BatchStatus;
  total_rows: number;
  processed_rows: number;
  chunk_count: number | null;
  chunks_done: number;
  webhook_url: string | null;
  base_url: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  upload_key: string;
  result_key: string | null;
  refunded_rows: number;
  failure_reason: string | null;
  failure_code: BatchErrorCode | null;
  failure_message: string | null;
  split_chunks: number;
  split_rows: number;
  storage_purged_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** Maps a database row to a record. */
export function toRecord(row: BatchJobRow): BatchJobRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    type: row.type,
    status: row.status,
    totalRows: Number(row.total_rows),
    processedRows: Number(row.processed_rows),
    chunkCount: row.chunk_count === null ? null : Number(row.chunk_count),
    chunksDone: Number(row.chunks_done),
    webhookUrl: row.webhook_url,
    baseUrl: row.base_url,
    idempotencyKey: row.idempotency_key,
    requestHash: row.request_hash,
    uploadKey: row.upload_key,
    resultKey: row.result_key,
    refundedRows: Number(row.refunded_rows),
    failureReason: row.failure_reason,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    splitChunks: Number(row.split_chunks),
    splitRows: Number(row.split_rows),
    storagePurgedAt: row.storage_purged_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
