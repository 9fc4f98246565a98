import { Column, Entity, PrimaryColumn } from 'typeorm';
import type {
  BatchErrorCode,
  BatchJobSummary,
  BatchResultFields,
  BatchStatus,
  BatchType,
  KeyMode,
} from '@verity/contracts';

/**
 * A batch job (migrations 1732348800000, 1733000000000, 1735100000000, 1737000000000,
 * 1738000000000, 1739000000000, 1740200000000, 1740350000000, 1741100000000,
 * 1741300000000, 1741500000000, 1741600000000), read and written
 * by libs/batch's repositories; its status only by the job lifecycle (`jobs/lifecycle/`).
 */
@Entity({ name: 'batch_jobs' })
export class BatchJobEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  /** The API key that created the job; null for jobs created before keys were recorded. */
  @Column({ name: 'key_id', type: 'uuid', nullable: true })
  keyId!: string | null;

  @Column({ type: 'text' })
  type!: BatchType;

  @Column({ type: 'text' })
  status!: BatchStatus;

  @Column({ name: 'total_rows', type: 'integer' })
  totalRows!: number;

  @Column({ name: 'processed_rows', type: 'integer', default: 0 })
  processedRows!: number;

  /**
   * The most rows reported processed while the job runs: recorded chunks plus the rows scored
   * so far in the others (batch_chunk_progress); never lowered, never above total_rows.
   */
  @Column({ name: 'progress_rows', type: 'integer', default: 0 })
  progressRows!: number;

  @Column({ name: 'chunk_count', type: 'integer', nullable: true })
  chunkCount!: number | null;

  @Column({ name: 'chunks_done', type: 'integer', default: 0 })
  chunksDone!: number;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl!: string | null;

  @Column({ name: 'base_url', type: 'text', nullable: true })
  baseUrl!: string | null;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey!: string | null;

  @Column({ name: 'request_hash', type: 'text', nullable: true })
  requestHash!: string | null;

  @Column({ name: 'upload_key', type: 'text' })
  uploadKey!: string;

  @Column({ name: 'result_key', type: 'text', nullable: true })
  resultKey!: string | null;

  /** A failed job's partial result file (its recorded chunks' rows), once written; else null. */
  @Column({ name: 'partial_key', type: 'text', nullable: true })
  partialKey!: string | null;

  /** The mode of the key that created the job: a test job is free and seen only by test keys. */
  @Column({ type: 'text', default: 'live' })
  mode!: KeyMode;

  /** The uploaded file's name as the client sent it (base name, control characters removed). */
  @Column({ name: 'file_name', type: 'text', nullable: true })
  fileName!: string | null;

  /**
   * The validated column of a multi-column upload (0-based); null for a single-column file
   * (docs/batch.md, "Multi-column files").
   */
  @Column({ name: 'input_column', type: 'integer', nullable: true })
  inputColumn!: number | null;

  /** The multi-column file's header record as uploaded (no terminator); null when it had none. */
  @Column({ name: 'input_header', type: 'text', nullable: true })
  inputHeader!: string | null;

  /** The number of columns of a multi-column file; null for a single-column file. */
  @Column({ name: 'input_width', type: 'integer', nullable: true })
  inputWidth!: number | null;

  /** Which result columns the file gets (`fields`; docs/batch.md, "Result columns"). */
  @Column({ name: 'result_fields', type: 'text', default: 'spec' })
  resultFields!: BatchResultFields;

  /** The job asks mail servers about its addresses (`smtp`; docs/models/email.md). */
  @Column({ name: 'smtp_probe', type: 'boolean', default: false })
  smtpProbe!: boolean;

  /** A phone job's country for every row (`country_hint`, ISO 3166-1 alpha-2, upper case). */
  @Column({ name: 'country_hint', type: 'text', nullable: true })
  countryHint!: string | null;

  /** A phone job's column of each row's country (`country_column`, resolved, 0-based). */
  @Column({ name: 'country_column', type: 'integer', nullable: true })
  countryColumn!: number | null;

  @Column({ name: 'refunded_rows', type: 'integer', default: 0 })
  refundedRows!: number;

  /** Internal detail of a failure (logs, operators); never shown to the customer. */
  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  /** The failure as the customer sees it (`BatchJob.error`). */
  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: BatchErrorCode | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  /** Split checkpoint: chunks published (numbered 0 … splitChunks-1) holding rows 0 … splitRows-1. */
  @Column({ name: 'split_chunks', type: 'integer', default: 0 })
  splitChunks!: number;

  @Column({ name: 'split_rows', type: 'integer', default: 0 })
  splitRows!: number;

  /** When the retention sweep deleted the job's stored files (result included). */
  @Column({ name: 'storage_purged_at', type: 'timestamptz', nullable: true })
  storagePurgedAt!: Date | null;

  /** Recoveries since the job's last scored chunk, while other jobs made no progress either. */
  @Column({ name: 'stall_recoveries', type: 'integer', default: 0 })
  stallRecoveries!: number;

  /** Who is writing the result file (a random token per claim), while `assemblyLeaseUntil` lasts. */
  @Column({ name: 'assembly_token', type: 'text', nullable: true })
  assemblyToken!: string | null;

  @Column({ name: 'assembly_lease_until', type: 'timestamptz', nullable: true })
  assemblyLeaseUntil!: Date | null;

  /**
   * The scored rows counted by verdict (`BatchJob.summary`): the sum of the recorded chunks'
   * counts, stored by the statement that ends the job; null before, and without scored rows.
   */
  @Column({ type: 'jsonb', nullable: true })
  summary!: BatchJobSummary | null;

  /** The end effects of the ended job are still to run (JobLifecycle in libs/batch). */
  @Column({ name: 'end_effects_due', type: 'boolean', default: false })
  endEffectsDue!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
