import { Injectable } from '@nestjs/common';
import type { WebhookDelivery } from '@verity/contracts';
import { DataSource } from 'typeorm';

/** An attempt to record: an HTTP status, or an error, and when the queue tries again. */
export interface WebhookAttempt {
  accountId: string;
  /** null: a test event sent from the console. */
  jobId: string | null;
  url: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  nextRetryAt: Date | null;
}

interface DeliveryRow {
  id: string;
  job_id: string | null;
  url: string | null;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  next_retry_at: Date | null;
}

const COLUMNS = 'id, job_id, url, attempt, attempted_at, status_code, error, next_retry_at';
/**
 * The console lists what live keys did: deliveries of a test key's jobs stay out of its list
 * (docs/test-mode.md). A test event (no job) is the console's own and is listed.
 */
const NOT_A_TEST_JOB = `NOT EXISTS (SELECT 1 FROM batch_jobs j WHERE j.id = d.job_id AND j.mode = 'test')`;

function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: String(r.id),
    job_id: r.job_id,
    url: r.url,
    attempt: r.attempt,
    attempted_at: r.attempted_at.toISOString(),
    status_code: r.status_code,
    error: r.error,
    next_retry_at: r.next_retry_at ? r.next_retry_at.toISOString() : null,
  };
}

/**
 * The webhook_deliveries table: every delivery attempt of a job's webhook and every test event,
 * so a customer sees what happened in the console. Its only reader and writer.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly db: DataSource) {}

  async record(a: WebhookAttempt): Promise<WebhookDelivery> {
    const [row] = await this.db.query<DeliveryRow[]>(
      `INSERT INTO webhook_deliveries (account_id, job_id, url, attempt, status_code, error, next_retry_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [a.accountId, a.jobId, a.url, a.attempt, a.statusCode, a.error, a.nextRetryAt],
    );
    return toDelivery(row);
  }

  /** A tenant's most recent attempts, newest first. */
  async listForAccount(accountId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.db.query<DeliveryRow[]>(
      `SELECT ${COLUMNS} FROM webhook_deliveries d
       WHERE d.account_id = $1 AND ${NOT_A_TEST_JOB} ORDER BY d.id DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows.map(toDelivery);
  }

  /** One attempt of the tenant's, or null (another account's id is not found). */
  async findForAccount(accountId: string, id: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.query<DeliveryRow[]>(
      `SELECT ${COLUMNS} FROM webhook_deliveries d
       WHERE d.account_id = $1 AND d.id = $2 AND ${NOT_A_TEST_JOB}`,
      [accountId, id],
    );
    return rows.length === 0 ? null : toDelivery(rows[0]);
  }

  /** The latest attempt recorded for the tenant's job, or null when none. */
  async latestOfJob(accountId: string, jobId: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.query<DeliveryRow[]>(
      `SELECT ${COLUMNS} FROM webhook_deliveries
       WHERE account_id = $1 AND job_id = $2 ORDER BY attempt DESC, id DESC LIMIT 1`,
      [accountId, jobId],
    );
    return rows.length === 0 ? null : toDelivery(rows[0]);
  }
}
