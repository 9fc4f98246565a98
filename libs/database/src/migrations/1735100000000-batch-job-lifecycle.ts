import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batch job lifecycle (docs/batch.md): the split checkpoint a restarted splitter resumes from, the
 * public reason of a failed job, and when its stored files were purged after retention.
 */
export class BatchJobLifecycle1735100000000 implements MigrationInterface {
  name = 'BatchJobLifecycle1735100000000';

  async up(q: QueryRunner): Promise<void> {
    // Constant defaults and nullable columns: no table rewrite.
    await q.query(`
      ALTER TABLE batch_jobs
        ADD COLUMN split_chunks integer NOT NULL DEFAULT 0,
        ADD COLUMN split_rows integer NOT NULL DEFAULT 0,
        ADD COLUMN failure_code text,
        ADD COLUMN failure_message text,
        ADD COLUMN storage_purged_at timestamptz`);
    // The retention sweep reads ended jobs whose files are still stored, oldest first.
    await q.query(
      `CREATE INDEX batch_jobs_retention_idx ON batch_jobs (finished_at)
       WHERE finished_at IS NOT NULL AND storage_purged_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX batch_jobs_retention_idx`);
    await q.query(`
      ALTER TABLE batch_jobs
        DROP COLUMN split_chunks, DROP COLUMN split_rows, DROP COLUMN failure_code,
        DROP COLUMN failure_message, DROP COLUMN storage_purged_at`);
  }
}
