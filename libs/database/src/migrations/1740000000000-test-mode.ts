import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode (docs/test-mode.md): a key's mode, and the mode of the key that created a batch
 * job, so test and live jobs never show to each other. Constant defaults: no table rewrite.
 */
export class TestMode1740000000000 implements MigrationInterface {
  name = 'TestMode1740000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE api_keys ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))`,
    );
    await q.query(
      `ALTER TABLE batch_jobs ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN mode`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN mode`);
  }
}
