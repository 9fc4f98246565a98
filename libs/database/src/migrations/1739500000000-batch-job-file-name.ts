import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The name the uploaded file had on the customer's side (docs/batch.md, "The upload"), shown in
 * the console's job table. Null for jobs created before it was kept and for uploads sent
 * without a file name.
 */
export class BatchJobFileName1739500000000 implements MigrationInterface {
  name = 'BatchJobFileName1739500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN file_name text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN file_name`);
  }
}
