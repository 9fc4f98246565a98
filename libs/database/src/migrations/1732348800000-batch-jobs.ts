import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Batch jobs, their recorded chunk completions, and instance-wide settings (signing secret). */
export class BatchJobs1732348800000 implements MigrationInterface {
  name = 'BatchJobs1732348800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE batch_jobs (
        id text PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id),
        type text NOT NULL CHECK (type IN ('email', 'phone', 'ip')),
        status text NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'failed')),
        total_rows integer NOT NULL CHECK (total_rows > 0),
        processed_rows integer NOT NULL DEFAULT 0,
        chunk_count integer,
        chunks_done integer NOT NULL DEFAULT 0,
        webhook_url text,
        base_url text,
        idempotency_key text,
        request_hash text,
        upload_key text NOT NULL,
        result_key text,
        refunded_rows integer NOT NULL DEFAULT 0,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(
      `CREATE UNIQUE INDEX batch_jobs_idempotency_idx ON batch_jobs (account_id, idempotency_key)
       WHERE idempotency_key IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX batch_jobs_active_idx ON batch_jobs (account_id) WHERE status IN ('queued', 'processing')`,
    );
    await q.query(
      `CREATE INDEX batch_jobs_recovery_idx ON batch_jobs (updated_at) WHERE status IN ('queued', 'processing')`,
    );
    // One row per scored chunk: the primary key makes recording a redelivered completion a no-op.
    await q.query(`
      CREATE TABLE batch_chunks (
        job_id text NOT NULL REFERENCES batch_jobs(id) ON DELETE CASCADE,
        chunk_no integer NOT NULL,
        rows integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job_id, chunk_no)
      )`);
    await q.query(`
      CREATE TABLE settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE settings`);
    await q.query(`DROP TABLE batch_chunks`);
    await q.query(`DROP TABLE batch_jobs`);
  }
}
