import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A scored chunk of a batch job, recorded once by the assembler. */
@Entity({ name: 'batch_chunks' })
export class BatchChunkEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId!: string;

  @PrimaryColumn({ name: 'chunk_no', type: 'integer' })
  chunkNo!: number;

  @Column({ type: 'integer' })
  rows!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
