import { Inject, Injectable } from '@nestjs/common';
import type { CreditOperation } from '@verity/contracts';
import type { CreditLedgerMovement, VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';

/** The API's business metrics; a no-op when metrics are disabled. */
@Injectable()
export class ApiMetrics {
  constructor(@Inject(METRICS) private readonly metrics: VerityMetrics | null) {}

  creditsConsumed(operation: CreditOperation, credits: number): void {
    this.metrics?.creditsConsumed.inc({ operation }, credits);
  }

  creditLedgerError(movement: CreditLedgerMovement): void {
    this.metrics?.creditLedgerErrors.inc({ movement });
  }
}
