import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobRepository,
  BatchJobsService,
  WebhookDeliveryError,
  deliverWebhook,
  webhookRetryDelayMs,
  WebhookDeliveryRepository,
  type WebhookPayload,
} from '@verity/batch';
import { JOB_QUEUE, type JobQueue, type QueuedJob } from '@verity/ports';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';

/**
 * Delivers the end-of-job webhook: the BatchJob as GET returns it (with a freshly signed
 * result_url), signed with WEBHOOK_SECRET when configured, else with the account's own
 * webhook secret. A throw makes the queue retry with capped exponential backoff (WEBHOOK_RETRY_BASE_MS
 * doubling, at most 1 h, WEBHOOK_MAX_ATTEMPTS in all); a URL the address policy refuses is not retried.
 */
@Injectable()
export class WebhookProcessor implements OnApplicationBootstrap {
  private readonly log = new Logger('Webhooks');

  constructor(
    private readonly repository: BatchJobRepository,
    private readonly jobs: BatchJobsService,
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.process<WebhookPayload>(
      this.names.webhooksQueue,
      4,
      (job) => this.deliver(job),
      (job, error) => {
        this.metrics?.webhookDeliveries.inc({ outcome: 'abandoned' });
        this.log.warn(
          `webhook of ${job.payload.jobId} abandoned after ${job.attempt} attempts: ${error.message}`,
        );
      },
    );
  }

  private async deliver(queued: QueuedJob<WebhookPayload>): Promise<void> {
    const job = await this.repository.findForWorker(queued.payload.jobId);
    if (!job?.webhookUrl) return;
    const secret =
      this.config.WEBHOOK_SECRET ?? (await this.repository.webhookSecretOf(job.accountId));
    if (!secret) return;
    const body = JSON.stringify(await this.jobs.view(job));
    const attempt = (queued.payload.firstAttempt ?? 1) + queued.attempt - 1;
    const attempted = { accountId: job.accountId, jobId: job.id, url: job.webhookUrl, attempt };
    try {
      const sent = await deliverWebhook(job.webhookUrl, body, {
        secret,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
        headers: { 'Verity-Delivery': `${job.id}.${attempt}` },
      });
      this.metrics?.webhookDeliveries.inc({ outcome: 'delivered' });
      this.log.log(`webhook of ${job.id} delivered (${sent.status})`);
      await this.record(attempted, queued.attempt, sent.status, null, false);
    } catch (error) {
      const retryable = !(error instanceof WebhookDeliveryError) || error.retryable;
      await this.record(
        attempted,
        queued.attempt,
        error instanceof WebhookDeliveryError ? (error.status ?? null) : null,
        error instanceof Error ? error.message : String(error),
        retryable,
      );
      if (error instanceof WebhookDeliveryError && !error.retryable) {
        this.metrics?.webhookDeliveries.inc({ outcome: 'refused' });
        this.log.warn(`webhook of ${job.id} not sent: ${error.message}`);
        return;
      }
      this.metrics?.webhookDeliveries.inc({ outcome: 'failed' });
      throw error;
    }
  }

  /** Records the attempt for the console; a recording failure never blocks delivery. */
  private async record(
    attempted: { accountId: string; jobId: string; url: string; attempt: number },
    queueAttempt: number,
    statusCode: number | null,
    error: string | null,
    retryable: boolean,
  ): Promise<void> {
    const retries = retryable && queueAttempt < this.config.WEBHOOK_MAX_ATTEMPTS;
    await this.deliveries
      .record({
        ...attempted,
        statusCode,
        error,
        nextRetryAt: retries
          ? new Date(
              Date.now() + webhookRetryDelayMs(queueAttempt, this.config.WEBHOOK_RETRY_BASE_MS),
            )
          : null,
      })
      .then(
        () => undefined,
        (e: unknown) => this.log.warn(`cannot record webhook attempt: ${String(e)}`),
      );
  }
}
