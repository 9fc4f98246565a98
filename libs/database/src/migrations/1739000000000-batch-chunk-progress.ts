import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Progress inside a chunk (docs/batch.md, "Progress"): each scorer's running count of rows
 * scored in a chunk not recorded yet, and on the job the highest count of rows processed it
 * has reported (recorded chunks plus those running counts), so the figure a caller polls never
 * goes back when a chunk is scored again from its start. A constant default: no table rewrite.
 */
export class BatchChunkProgress1739000000000 implements MigrationInterface {
  name = 'BatchChunkProgress1739000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN progress_rows integer NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE batch_chunk_progress (
        job_id text NOT NULL REFERENCES batch_jobs(id) ON DELETE CASCADE,
        chunk_no integer NOT NULL,
        rows_scored integer NOT NULL,
        PRIMARY KEY (job_id, chunk_no)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE batch_chunk_progress`);
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN progress_rows`);
  }
}
