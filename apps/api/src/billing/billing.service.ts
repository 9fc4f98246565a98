import { Injectable } from '@nestjs/common';
import { CreditsService, type Principal } from '@verity/accounts';
import { VerityError } from '@verity/common';
import type { CreditLedgerMovement } from '@verity/observability';
import { CREDIT_COST, type CreditOperation } from '@verity/contracts';
import { ApiMetrics } from '../metrics/api-metrics';

/**
 * Runs billable work: the cost is reserved first (so an account that cannot pay never reaches
 * a paid upstream such as HLR, and concurrent calls cannot overdraw), and refunded in the
 * ledger if the work fails, so a 4xx/5xx answer costs nothing.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly credits: CreditsService,
    private readonly metrics: ApiMetrics,
  ) {}

  async charge<T extends object>(
    principal: Principal,
    operation: CreditOperation,
    reference: string,
    work: () => Promise<T> | T,
  ): Promise<T & { credits_used: number }> {
    const cost = CREDIT_COST[operation];
    const usage = { keyId: principal.keyId, operation, calls: 1 };
    await this.credits
      .debit(principal.accountId, cost, operation, reference, usage)
      .catch((error: unknown) => this.ledgerFailed('debit', error));
    try {
      const result = await work();
      this.metrics.creditsConsumed(operation, cost);
      return { ...result, credits_used: cost };
    } catch (error) {
      await this.credits
        .credit(principal.accountId, cost, 'refund', reference, { ...usage, calls: -1 })
        .catch((refundError: unknown) => this.ledgerFailed('refund', refundError));
      throw error;
    }
  }

  /** Counts a ledger transaction that failed; a refusal for lack of credits is not a failure. */
  private ledgerFailed(movement: CreditLedgerMovement, error: unknown): never {
    if (!(error instanceof VerityError)) this.metrics.creditLedgerError(movement);
    throw error;
  }
}
