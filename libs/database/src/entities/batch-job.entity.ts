import { Column, Entity, PrimaryColumn } from 'typeorm';

const int = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/** A batch job (migrations 1732348800000, 1735100000000). Written through SQL in libs/batch; mapped for tooling. */
@Entity({ name: 'batch_jobs' })
export class BatchJobEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'text' })
  type!: 'email' | 'phone' | 'ip';

  @Column({ type: 'text' })
  status!: 'queued' | 'processing' | 'done' | 'failed';

  @Column({ name: 'total_rows', type: 'integer', transformer: int })
  totalRows!: number;

  @Column({ name: 'processed_rows', type: 'integer', transformer: int })
  processedRows!: number;

  @Column({ name: 'chunk_count', type: 'integer', nullable: true })
  chunkCount!: number | null;

  @Column({ name: 'chunks_done', type: 'integer' })
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

  @Column({ name: 'refunded_rows', type: 'integer' })
  refundedRows!: number;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: string | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  @Column({ name: 'split_chunks', type: 'integer' })
  splitChunks!: number;

  @Column({ name: 'split_rows', type: 'integer' })
  splitRows!: number;

  @Column({ name: 'storage_purged_at', type: 'timestamptz', nullable: true })
  storagePurgedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
