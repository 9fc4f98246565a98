import { WebhookDeliveryRepository } from '../webhooks/webhook-delivery.repository';
import { Module } from '@nestjs/common';
import { BatchOutages } from '../workers/batch-outages';
import { AccountsModule } from '@verity/accounts';
import { BatchJobHousekeeping } from './batch-job-housekeeping.repository';
import { BatchAssemblyRepository } from './batch-assembly.repository';
import { BatchJobRepository } from './batch-job.repository';
import { BatchProgressRepository } from './batch-progress.repository';
import { BatchJobsService } from './batch-jobs.service';
import { JobEndEffects } from './lifecycle/end-effects';
import { JobLifecycle } from './lifecycle/job-lifecycle';
import { JobLifecycleRepository } from './lifecycle/job-lifecycle.repository';
import { JobTransactions } from './lifecycle/job-transactions';
import { BATCH_NAMES, batchNamesProvider } from './batch-names';
import { SettingsRepository } from './settings.repository';
import { SigningSecretProvider } from './signing-secret.provider';

/**
 * Batch job storage and lifecycle (JobLifecycle, the one door of a job's status), the
 * pipeline's names (BATCH_NAMES) and the workers' shared outage view. Needs CoreModule
 * (DataSource, BATCH_CONFIG, CORE_CONFIG, METRICS) and BatchPortsModule (the end effects' blob
 * store and job queue) from the host.
 */
@Module({
  imports: [AccountsModule],
  providers: [
    BatchJobRepository,
    BatchAssemblyRepository,
    BatchProgressRepository,
    BatchJobHousekeeping,
    BatchJobsService,
    JobLifecycleRepository,
    JobTransactions,
    JobEndEffects,
    JobLifecycle,
    SettingsRepository,
    SigningSecretProvider,
    WebhookDeliveryRepository,
    BatchOutages,
    batchNamesProvider,
  ],
  exports: [
    BatchJobRepository,
    BatchAssemblyRepository,
    BatchProgressRepository,
    BatchJobHousekeeping,
    BatchJobsService,
    JobLifecycle,
    SigningSecretProvider,
    WebhookDeliveryRepository,
    BatchOutages,
    BATCH_NAMES,
  ],
})
export class BatchJobsModule {}
