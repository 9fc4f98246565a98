import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credit leases: a block of an account's credits reserved by one API instance (docs/credits.md).
 * The reservation and every release are ledger rows; this table says what each open lease
 * still holds (`granted - spent - released`) and when its instance last proved alive.
 */
export class CreditLeases1736000000000 implements MigrationInterface {
  name = 'CreditLeases1736000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE credit_leases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        instance_id text NOT NULL,
        granted bigint NOT NULL CHECK (granted >= 0),
        spent bigint NOT NULL DEFAULT 0 CHECK (spent >= 0),
        released bigint NOT NULL DEFAULT 0 CHECK (released >= 0),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz
      )`);
    // At most one open lease per (account, instance): a refill adds to it.
    await q.query(`
      CREATE UNIQUE INDEX credit_leases_open_idx ON credit_leases (account_id, instance_id)
      WHERE closed_at IS NULL`);
    await q.query(`
      CREATE INDEX credit_leases_heartbeat_idx ON credit_leases (heartbeat_at)
      WHERE closed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_leases`);
  }
}
