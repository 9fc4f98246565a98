import { Module } from '@nestjs/common';
import { BatchJobsModule } from '@verity/batch';
import { AssemblerService } from './assembler/assembler.service';
import { JobIdleSource } from './recovery/job-idle.source';
import { JobRecoveryService } from './recovery/job-recovery.service';
import { StorageRetentionService } from './retention/storage-retention.service';
import { SplitterService } from './splitter/splitter.service';
import { WebhookProcessor } from './webhooks/webhook.processor';

/**
 * apps/ingest: the splitter (queue `ingest`), the assembler (topic `verity.batch.progress`),
 * webhook delivery (queue `webhooks`), the recovery sweep and the storage retention sweep. Expects CoreModule and
 * BatchPortsModule from the host (the ingest deployable, or `verity start`).
 */
@Module({
  imports: [BatchJobsModule],
  providers: [
    SplitterService,
    AssemblerService,
    WebhookProcessor,
    JobRecoveryService,
    JobIdleSource,
    StorageRetentionService,
  ],
})
export class IngestModule {}
