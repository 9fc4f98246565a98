import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  batchNames,
  type BatchNames,
  BatchJobRepository,
  BatchJobsService,
  JOB_QUEUE,
  WebhookDeliveryError,
  deliverWebhook,
  type JobQueue,
  type QueuedJob,
} from '@verity/batch';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/** Payload of a `webhooks` queue job. */
export interface WebhookPayload {
  jobId: string;
}

/**
 * Delivers the end-of-job webhook: the BatchJob as GET returns it (with a freshly signed
 * result_url), signed with WEBHOOK_SECRET when configured, else with the account's own
 * webhook secret. A throw makes the queue retry with exponential backoff (WEBHOOK_RETRY_BASE_MS
 * doubling, WEBHOOK_MAX_ATTEMPTS in all); a URL the address policy refuses is not retried.
 */
@Injectable()
export class WebhookProcessor implements OnApplicationBootstrap {
  private readonly log = new Logger('Webhooks');

  constructor(
    private readonly repository: BatchJobRepository,
    private readonly jobs: BatchJobsService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Topic, group and queue names (BATCH_NAMESPACE). */
  private get names(): BatchNames {
    return batchNames(this.config.BATCH_NAMESPACE);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.process<WebhookPayload>(
      this.names.webhooksQueue,
      4,
      (job) => this.deliver(job),
      (job, error) =>
        this.log.warn(
          `webhook of ${job.payload.jobId} abandoned after ${job.attempt} attempts: ${error.message}`,
        ),
    );
  }

  private async deliver(queued: QueuedJob<WebhookPayload>): Promise<void> {
    const job = await this.repository.findForWorker(queued.payload.jobId);
    if (!job?.webhookUrl) return;
    const secret =
      this.config.WEBHOOK_SECRET ?? (await this.repository.webhookSecretOf(job.accountId));
    if (!secret) return;
    const body = JSON.stringify(await this.jobs.view(job));
    try {
      const sent = await deliverWebhook(job.webhookUrl, body, {
        secret,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
        headers: { 'Verity-Delivery': `${job.id}.${queued.attempt}` },
      });
      this.log.log(`webhook of ${job.id} delivered (${sent.status})`);
    } catch (error) {
      if (error instanceof WebhookDeliveryError && !error.retryable) {
        this.log.warn(`webhook of ${job.id} not sent: ${error.message}`);
        return;
      }
      throw error;
    }
  }
}
