import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls made with test keys, per (account, hour, operation, key). Kept apart from usage_hourly,
 * which the ledger and lease statements write with the credits they move: test calls move none.
 */
export class TestUsage1740100000000 implements MigrationInterface {
  name = 'TestUsage1740100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_test_hourly (
        account_id uuid NOT NULL REFERENCES accounts(id),
        hour timestamptz NOT NULL,
        operation text NOT NULL,
        key_id uuid NOT NULL,
        calls bigint NOT NULL,
        PRIMARY KEY (account_id, hour, operation, key_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_test_hourly`);
  }
}
