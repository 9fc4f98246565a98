import { Injectable } from '@nestjs/common';
import {
  CreditLeases,
  CreditsService,
  KeyActivityRecorder,
  type LeaseHold,
  type Principal,
} from '@verity/accounts';
import { VerityError } from '@verity/common';
import type { CreditLedgerMovement } from '@verity/observability';
import { CREDIT_COST, type CreditOperation } from '@verity/contracts';
import { ApiMetrics } from '../metrics/api-metrics';

/** The usage a ledger movement records for one call (the console's usage per key). */
interface CallUsage {
  keyId: string;
  operation: string;
  calls: number;
}

function usageOf(principal: Principal, operation: CreditOperation): CallUsage {
  return { keyId: principal.keyId, operation, calls: 1 };
}

/**
 * Runs billable work. The cost is taken first, so an account that cannot pay never reaches a
 * paid upstream such as HLR and concurrent calls cannot overdraw: from this instance's credit
 * lease when the account has one (no database round trip), else by a direct debit in the
 * ledger. A failed call gives its credits back (to the lease, or by a refund in the ledger), so
 * a 4xx/5xx answer costs nothing. A test key's call is never charged: it runs the same work,
 * reports what it would cost live and is counted apart (KeyActivityRecorder). docs/credits.md has
 * the design.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly credits: CreditsService,
    private readonly leases: CreditLeases,
    private readonly metrics: ApiMetrics,
    private readonly activity: KeyActivityRecorder,
  ) {}

  async charge<T extends object>(
    principal: Principal,
    operation: CreditOperation,
    reference: string,
    work: () => Promise<T> | T,
  ): Promise<T & { credits_used: number }> {
    const cost = CREDIT_COST[operation];
    if (principal.mode === 'test') {
      const result = await work();
      this.activity.testCall(principal, operation);
      return { ...result, credits_used: cost };
    }
    // From the lease as it stands when it holds enough (no promise), else by `take`, which may
    // reserve a block first.
    const hold =
      this.leases.takeNow(principal.accountId, cost) ??
      (await this.leases
        .take(principal.accountId, cost)
        .catch((error: unknown) => this.ledgerFailed('debit', error)));
    if (!hold)
      await this.debit(principal.accountId, cost, reference, usageOf(principal, operation));
    try {
      const result = await work();
      if (hold) this.leases.spend(hold, principal.keyId, operation);
      this.metrics.creditsConsumed(operation, cost);
      return { ...result, credits_used: cost };
    } catch (error) {
      await this.giveBack(
        hold,
        principal.accountId,
        cost,
        reference,
        usageOf(principal, operation),
      );
      throw error;
    }
  }

  /**
   * A direct debit. When the balance is short while other instances' leases hold credits of
   * the account, they are asked to give them back and the debit is tried once more: a call the
   * account can pay is not refused because another instance holds its credits.
   */
  private async debit(
    accountId: string,
    cost: number,
    reference: string,
    usage: CallUsage,
  ): Promise<void> {
    const once = () =>
      this.credits
        .debit(accountId, cost, usage.operation, reference, usage)
        .catch((error: unknown) => this.ledgerFailed('debit', error));
    try {
      await once();
    } catch (error) {
      if (!(error instanceof VerityError && error.code === 'insufficient_credits')) throw error;
      const reclaimed = await this.leases
        .reclaim(accountId)
        .catch((reclaimError: unknown) => this.ledgerFailed('debit', reclaimError));
      if (!reclaimed) throw error;
      await once();
    }
  }

  private async giveBack(
    hold: LeaseHold | null,
    accountId: string,
    cost: number,
    reference: string,
    usage: CallUsage,
  ): Promise<void> {
    if (hold) return this.leases.giveBack(hold);
    await this.credits
      .credit(accountId, cost, 'refund', reference, { ...usage, calls: -1 })
      .catch((refundError: unknown) => this.ledgerFailed('refund', refundError));
  }

  /** Counts a ledger transaction that failed; a refusal for lack of credits is not a failure. */
  private ledgerFailed(movement: CreditLedgerMovement, error: unknown): never {
    if (!(error instanceof VerityError)) this.metrics.creditLedgerError(movement);
    throw error;
  }
}
