import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job's rows counted by verdict (docs/batch.md, "Summary"): each recorded chunk keeps the
 * counts its scorer reported (`batch_chunks.verdicts`, recorded once with the chunk, so a
 * redelivered report adds nothing), and the statement that ends a job stores their sum
 * (`batch_jobs.summary`). Both nullable without a default: no table rewrite, and jobs and
 * chunks recorded before have none.
 */
export class BatchSummary1741600000000 implements MigrationInterface {
  name = 'BatchSummary1741600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_chunks ADD COLUMN verdicts jsonb`);
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN summary jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN summary`);
    await q.query(`ALTER TABLE batch_chunks DROP COLUMN verdicts`);
  }
}
