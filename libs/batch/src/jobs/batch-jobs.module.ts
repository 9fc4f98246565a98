import { WebhookDeliveries } from '../webhooks/webhook-deliveries';
import { Module } from '@nestjs/common';
import { AccountsModule } from '@verity/accounts';
import { BatchJobRepository } from './batch-job.repository';
import { BatchJobsService } from './batch-jobs.service';
import { SigningSecretProvider } from './signing-secret.provider';

/** Batch job storage and lifecycle. Needs CoreModule (DataSource, APP_CONFIG, METRICS) from the host. */
@Module({
  imports: [AccountsModule],
  providers: [BatchJobRepository, BatchJobsService, SigningSecretProvider, WebhookDeliveries],
  exports: [BatchJobRepository, BatchJobsService, SigningSecretProvider, WebhookDeliveries],
})
export class BatchJobsModule {}
