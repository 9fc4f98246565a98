import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console: usage rolled up per (account, hour, operation, key), the key on each ledger row
 * and batch job, console users with their sessions and one-time sign-in links, login
 * throttling, and recorded webhook deliveries.
 */
export class ConsoleUsage1733000000000 implements MigrationInterface {
  name = 'ConsoleUsage1733000000000';

  async up(q: QueryRunner): Promise<void> {
    // Nullable columns without defaults: no table rewrite, old rows keep NULL (no key known).
    await q.query(`ALTER TABLE credit_ledger ADD COLUMN key_id uuid`);
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN key_id uuid`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
    // Written in the same statement/transaction as the debit it belongs to. key_id is the nil
    // uuid for work started from the console itself (no API key), so it can be in the key.
    await q.query(`
      CREATE TABLE usage_hourly (
        account_id uuid NOT NULL REFERENCES accounts(id),
        hour timestamptz NOT NULL,
        operation text NOT NULL,
        key_id uuid NOT NULL,
        calls bigint NOT NULL,
        credits bigint NOT NULL,
        PRIMARY KEY (account_id, hour, operation, key_id)
      )`);
    await q.query(`
      CREATE TABLE console_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX console_users_account_idx ON console_users (account_id)`);
    await q.query(`
      CREATE TABLE console_sessions (
        id_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX console_sessions_user_idx ON console_sessions (user_id)`);
    await q.query(`
      CREATE TABLE console_sign_in_links (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE console_login_throttle (
        subject text PRIMARY KEY,
        window_started_at timestamptz NOT NULL,
        failures integer NOT NULL
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id),
        job_id text NOT NULL,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        status_code integer,
        error text,
        next_retry_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX batch_jobs_account_created_idx ON batch_jobs (account_id, created_at DESC)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_job_idx ON webhook_deliveries (account_id, job_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE console_login_throttle`);
    await q.query(`DROP TABLE console_sign_in_links`);
    await q.query(`DROP TABLE console_sessions`);
    await q.query(`DROP TABLE console_users`);
    await q.query(`DROP TABLE usage_hourly`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN key_id`);
    await q.query(`ALTER TABLE credit_ledger DROP COLUMN key_id`);
  }
}
