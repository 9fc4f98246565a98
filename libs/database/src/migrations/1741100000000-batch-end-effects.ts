import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a job's end effects (clean-up, webhook; docs/batch.md, "Job lifecycle") are still
 * to run: set by the statement that ends the job, cleared once they ran, so the recovery sweep
 * runs them again for a job whose ender died or failed midway. Jobs that ended before count
 * as done (a constant default: no table rewrite); the partial index holds only the few due.
 */
export class BatchEndEffects1741100000000 implements MigrationInterface {
  name = 'BatchEndEffects1741100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs ADD COLUMN end_effects_due boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `CREATE INDEX batch_jobs_end_effects_idx ON batch_jobs (finished_at) WHERE end_effects_due`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX batch_jobs_end_effects_idx`);
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN end_effects_due`);
  }
}
