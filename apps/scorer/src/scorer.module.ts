import { Module } from '@nestjs/common';
import { BatchJobsModule } from '@verity/batch';
import { ScorerService } from './scorer.service';

/**
 * apps/scorer: validates row chunks with the engines. Expects CoreModule, EnginesModule and
 * BatchPortsModule from the host (the scorer deployable, or `verity start`).
 */
@Module({
  imports: [BatchJobsModule],
  providers: [ScorerService],
})
export class ScorerModule {}
