import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { BatchJobHousekeeping } from '@verity/batch';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';

/**
 * Feeds `verity_batch_job_idle_seconds` from the database at scrape time, so a job that
 * stopped advancing pages someone even when every process looks healthy. Every ingest replica
 * reports the same figure; rules take the max.
 */
@Injectable()
export class JobIdleSource implements OnModuleInit {
  constructor(
    private readonly housekeeping: BatchJobHousekeeping,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  onModuleInit(): void {
    this.metrics?.setJobIdleSource(() => this.housekeeping.longestIdle());
  }
}
