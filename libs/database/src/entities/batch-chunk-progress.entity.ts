import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A scorer's running count of rows scored in a chunk of a batch job (migration 1739000000000). */
@Entity({ name: 'batch_chunk_progress' })
export class BatchChunkProgressEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @PrimaryColumn({ name: 'chunk_no', type: 'integer' })
  chunkNo!: number;

  @Column({ name: 'rows_scored', type: 'integer' })
  rowsScored!: number;
}
