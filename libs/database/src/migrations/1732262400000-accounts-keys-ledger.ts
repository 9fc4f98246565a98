import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, API keys and the append-only credit ledger. */
export class AccountsKeysLedger1732262400000 implements MigrationInterface {
  name = 'AccountsKeysLedger1732262400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        credits_balance bigint NOT NULL DEFAULT 0 CHECK (credits_balance >= 0),
        webhook_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        name text NOT NULL,
        lookup_id text NOT NULL UNIQUE,
        key_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        rotated_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE credit_ledger (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id),
        delta bigint NOT NULL,
        reason text NOT NULL,
        reference text,
        balance_after bigint NOT NULL CHECK (balance_after >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX credit_ledger_account_idx ON credit_ledger (account_id, id)`);
    // The ledger is the audit trail of money: rows are never changed or removed.
    await q.query(`
      CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_ledger is append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE OR DELETE ON credit_ledger
      FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_ledger`);
    await q.query(`DROP FUNCTION credit_ledger_append_only`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE accounts`);
  }
}
