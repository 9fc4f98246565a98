import { Injectable } from '@nestjs/common';
import type { WebhookDelivery } from '@verity/contracts';
import { DataSource } from 'typeorm';

/** An attempt to record: an HTTP status, or an error, and when the queue tries again. */
export interface WebhookAttempt {
  accountId: string;
  jobId: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  nextRetryAt: Date | null;
}

/**
 * The webhook_deliveries table: every delivery attempt of a job's webhook, so a customer sees
 * what happened in the console. Its only reader and writer.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly db: DataSource) {}

  async record(a: WebhookAttempt): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_deliveries (account_id, job_id, attempt, status_code, error, next_retry_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [a.accountId, a.jobId, a.attempt, a.statusCode, a.error, a.nextRetryAt],
    );
  }

  /** A tenant's most recent attempts, newest first. */
  async listForAccount(accountId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.db.query<
      {
        job_id: string;
        attempt: number;
        attempted_at: Date;
        status_code: number | null;
        error: string | null;
        next_retry_at: Date | null;
      }[]
    >(
      `SELECT job_id, attempt, attempted_at, status_code, error, next_retry_at
       FROM webhook_deliveries WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows.map((r) => ({
      job_id: r.job_id,
      attempt: r.attempt,
      attempted_at: r.attempted_at.toISOString(),
      status_code: r.status_code,
      error: r.error,
      next_retry_at: r.next_retry_at ? r.next_retry_at.toISOString() : null,
    }));
  }
}
