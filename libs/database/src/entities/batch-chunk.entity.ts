import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BatchJobSummary } from '@verity/contracts';

/** A scored chunk of a batch job, recorded once by the assembler. */
@Entity({ name: 'batch_chunks' })
export class BatchChunkEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @PrimaryColumn({ name: 'chunk_no', type: 'integer' })
  chunkNo!: number;

  @Column({ type: 'integer' })
  rows!: number;

  /** The chunk's rows counted by verdict, as its scorer reported them (migration 1741600000000). */
  @Column({ type: 'jsonb', nullable: true })
  verdicts!: BatchJobSummary | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
