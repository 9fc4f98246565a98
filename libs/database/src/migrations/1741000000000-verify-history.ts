import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account's history behind the fraud score (docs/history.md): every verify call with the
 * HMACs of its values and what it scored (written in batches by the API's call log), and the
 * outcomes the account reported, by request_id or by value. Values are never stored raw. Rows
 * go with their account and are deleted after HISTORY_RETENTION_DAYS.
 */
export class VerifyHistory1741000000000 implements MigrationInterface {
  name = 'VerifyHistory1741000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE verify_calls (
        request_id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('live', 'test')),
        created_at timestamptz NOT NULL,
        email_hash text,
        phone_hash text,
        ip_hash text,
        subnet_hash text,
        fraud_score smallint NOT NULL CHECK (fraud_score BETWEEN 0 AND 100),
        risk_reasons text[] NOT NULL,
        credit_reasons text[] NOT NULL
      )`);
    // Written a batch a second on the verify path: the primary key (reports look calls up by
    // request_id) and a BRIN index for the retention sweep, whose rows arrive in time order.
    await q.query(`CREATE INDEX verify_calls_created_at ON verify_calls USING brin (created_at)`);
    await q.query(`
      CREATE TABLE verify_feedback (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('live', 'test')),
        request_id uuid,
        outcome text NOT NULL CHECK (outcome IN ('fraud', 'legitimate')),
        email_hash text,
        phone_hash text,
        ip_hash text,
        subnet_hash text,
        reported_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, request_id)
      )`);
    await q.query(`CREATE INDEX verify_feedback_reported_at ON verify_feedback (reported_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE verify_feedback`);
    await q.query(`DROP TABLE verify_calls`);
  }
}
