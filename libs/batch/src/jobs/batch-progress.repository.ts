import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BatchChunkProgressEntity, BatchJobEntity } from '@verity/database';
import { isRunning } from './job-states';

/** A scorer's running count of rows scored in chunk `chunkNo` of `jobId`. */
export interface ChunkProgress {
  jobId: string;
  chunkNo: number;
  rowsScored: number;
}

/**
 * Progress inside chunks (docs/batch.md, "Progress"): the batch_chunk_progress rows and the
 * job's progress_rows. processed_rows and the recorded chunks stay BatchJobRepository's.
 */
@Injectable()
export class BatchProgressRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores a chunk's running count (the latest one: a chunk scored again from its start counts
   * from 0) and raises the job's progress_rows to its recorded rows plus the running counts of
   * the chunks not recorded yet, if that is more. The job row is locked first, in its own
   * statement, so the sum reads a snapshot taken after any chunk completion that held the lock
   * (BatchJobRepository.recordChunks): a chunk is counted either recorded or running, never
   * both. Nothing is stored unless the job is running (processing).
   */
  async record(progress: ChunkProgress): Promise<void> {
    await this.db.transaction(async (manager) => {
      const job = await manager
        .getRepository(BatchJobEntity)
        .createQueryBuilder('j')
        .select(['j.id', 'j.status'])
        .where('j.id = :jobId', { jobId: progress.jobId })
        .setLock('pessimistic_write')
        .getOne();
      if (!job || !isRunning(job.status)) return;
      await manager.getRepository(BatchChunkProgressEntity).upsert(progress, ['jobId', 'chunkNo']);
      await manager
        .getRepository(BatchJobEntity)
        .createQueryBuilder()
        .update()
        .set({
          progressRows: () =>
            `greatest(progress_rows, least(total_rows, processed_rows + (
               SELECT coalesce(sum(p.rows_scored), 0) FROM batch_chunk_progress p
                WHERE p.job_id = :jobId AND NOT EXISTS (
                  SELECT 1 FROM batch_chunks c WHERE c.job_id = p.job_id AND c.chunk_no = p.chunk_no))))`,
        })
        .where('id = :jobId', { jobId: progress.jobId })
        .execute();
    });
  }

  /** Drops the running counts of an ended job (its progress_rows stays). */
  async forget(jobId: string): Promise<void> {
    await this.db.getRepository(BatchChunkProgressEntity).delete({ jobId });
  }
}
