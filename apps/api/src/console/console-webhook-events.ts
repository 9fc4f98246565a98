import { Inject, Injectable } from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobRepository,
  WebhookDeliveryError,
  WebhookDeliveryRepository,
  deliverWebhook,
  enqueueWebhook,
  validateWebhookUrl,
  webhookJobId,
  webhookTestEvent,
} from '@verity/batch';
import { VerityError } from '@verity/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { WebhookDelivery, WebhookResend } from '@verity/contracts';
import { JOB_QUEUE, type JobQueue } from '@verity/ports';

/**
 * The console's webhook actions: a signed test event sent once through the webhook sender, and
 * a job's webhook queued again on the queue the ingest's webhook processor takes. Both sign like
 * every delivery: WEBHOOK_SECRET when configured, else the account's own secret.
 */
@Injectable()
export class ConsoleWebhookEvents {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: BatchJobRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
  ) {}

  /** Sends a test event to `url` (the address policy of job webhooks applies) and records it. */
  async sendTest(accountId: string, url: string): Promise<WebhookDelivery> {
    const target = validateWebhookUrl(url, this.config.WEBHOOK_ALLOW_PRIVATE).href;
    const secret = this.config.WEBHOOK_SECRET ?? (await this.jobs.webhookSecretOf(accountId));
    if (!secret) throw new VerityError('not_found', 'account not found');
    const event = webhookTestEvent();
    const outcome = await deliverWebhook(target, JSON.stringify(event), {
      secret,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      headers: { 'Verity-Delivery': `${event.id}.1` },
    }).then(
      (sent) => ({ statusCode: sent.status, error: null }),
      (e: unknown) => {
        if (!(e instanceof WebhookDeliveryError)) throw e;
        return { statusCode: e.status ?? null, error: e.message };
      },
    );
    return this.deliveries.record({
      accountId,
      jobId: null,
      url: target,
      attempt: 1,
      ...outcome,
      nextRetryAt: null,
    });
  }

  /** Queues the webhook of the delivery's job again, listed as the job's next attempt. */
  async resend(accountId: string, deliveryId: string): Promise<WebhookResend> {
    const delivery = /^[0-9]{1,18}$/.test(deliveryId)
      ? await this.deliveries.findForAccount(accountId, deliveryId)
      : null;
    if (!delivery) throw new VerityError('not_found', `webhook delivery ${deliveryId} not found`);
    if (delivery.job_id === null)
      throw new VerityError('validation_error', 'A test event is not resent: send a new one.');
    // The console works on live jobs only; a test job's webhook is not resent from it.
    const job = await this.jobs.findForAccount(accountId, 'live', delivery.job_id);
    if (!job?.webhookUrl)
      throw new VerityError('not_found', `batch job ${delivery.job_id} no longer exists`);
    const latest = await this.deliveries.latestOfJob(accountId, job.id);
    // A webhook the queue will still retry would number its next attempt like the resend.
    if (latest?.next_retry_at && new Date(latest.next_retry_at).getTime() > Date.now())
      throw new VerityError(
        'unprocessable',
        `The webhook of ${job.id} is still being retried (next attempt at ${latest.next_retry_at}); resend it after that.`,
      );
    const attempt = (latest?.attempt ?? 0) + 1;
    // A resend of the same attempt number (a double click) is one queue job.
    await enqueueWebhook(
      this.queue,
      this.names,
      this.config,
      { jobId: job.id, firstAttempt: attempt },
      `${webhookJobId(job.id)}-resend-${attempt}`,
    );
    return { job_id: job.id, attempt };
  }
}
