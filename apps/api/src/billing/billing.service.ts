import { Injectable } from '@nestjs/common';
import { CreditsService, type Principal } from '@verity/accounts';
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
    await this.credits.debit(principal.accountId, cost, operation, reference);
    try {
      const result = await work();
      this.metrics.creditsConsumed(operation, cost);
      return { ...result, credits_used: cost };
    } catch (error) {
      await this.credits.credit(principal.accountId, cost, 'refund', reference);
      throw error;
    }
  }
}
