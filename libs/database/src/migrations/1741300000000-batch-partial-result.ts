import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partial result file of a failed job that scored rows (docs/batch.md, "Partial results"):
 * its key once the end effect wrote it, null until then and for every other job.
 */
export class BatchPartialResult1741300000000 implements MigrationInterface {
  name = 'BatchPartialResult1741300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN partial_key text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN partial_key`);
  }
}
