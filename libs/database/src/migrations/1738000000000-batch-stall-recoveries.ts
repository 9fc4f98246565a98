import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recoveries of a stalled job since its last scored chunk (docs/batch.md, "Recovery"): the
 * recovery sweep counts them and fails the job, refunding what was not scored, once they run
 * out. A constant default: no table rewrite on PostgreSQL 11 and later.
 */
export class BatchStallRecoveries1738000000000 implements MigrationInterface {
  name = 'BatchStallRecoveries1738000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN stall_recoveries integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN stall_recoveries`);
  }
}
