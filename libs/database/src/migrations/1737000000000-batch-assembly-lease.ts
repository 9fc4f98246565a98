import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The assembly lease (docs/batch.md): the finisher claims a job's assembly in a short statement and
 * writes the result file holding no transaction, so who is writing it (and until when, should
 * its process die) is kept on the job row instead of in an open transaction's advisory lock.
 */
export class BatchAssemblyLease1737000000000 implements MigrationInterface {
  name = 'BatchAssemblyLease1737000000000';

  async up(q: QueryRunner): Promise<void> {
    // Nullable columns without defaults: no table rewrite.
    await q.query(`
      ALTER TABLE batch_jobs
        ADD COLUMN assembly_token text,
        ADD COLUMN assembly_lease_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs DROP COLUMN assembly_token, DROP COLUMN assembly_lease_until`,
    );
  }
}
