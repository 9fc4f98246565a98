import type { BatchConfig } from '@verity/config';
import type { JobQueue } from '@verity/ports';
import type { BatchNames } from '../jobs/batch-names';
import { WEBHOOK_MAX_DELAY_MS } from './webhook.retry';

/** Payload of a `webhooks` queue job. */
export interface WebhookPayload {
  jobId: string;
  /** The attempt number its first try is recorded as (a resend continues the job's count). */
  firstAttempt?: number;
}

/**
 * Enqueues the delivery of a job's webhook with the configured retries. `queueJobId` dedupes:
 * enqueuing an id the queue still knows is a no-op.
 */
export function enqueueWebhook(
  queue: JobQueue,
  names: BatchNames,
  config: Pick<BatchConfig, 'WEBHOOK_MAX_ATTEMPTS' | 'WEBHOOK_RETRY_BASE_MS'>,
  payload: WebhookPayload,
  queueJobId: string,
): Promise<string> {
  return queue.add(names.webhooksQueue, payload, {
    jobId: queueJobId,
    attempts: config.WEBHOOK_MAX_ATTEMPTS,
    backoffMs: config.WEBHOOK_RETRY_BASE_MS,
    backoffCapMs: WEBHOOK_MAX_DELAY_MS,
  });
}
