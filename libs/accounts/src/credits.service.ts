import { Inject, Injectable } from '@nestjs/common';
import { retryOnTransactionConflict, VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import { LeaseRepository } from './leases/lease.repository';
import { LedgerRepository, type LedgerMovement } from './ledger.repository';

/** Who pays (the API key) and for what (`calls` of `operation`). */
export interface UsageAttribution {
  keyId: string;
  operation: string;
  calls: number;
}

function attributed(usage: UsageAttribution | undefined): Partial<LedgerMovement> {
  if (!usage) return {};
  return { keyId: usage.keyId, usage: { operation: usage.operation, calls: usage.calls } };
}

interface PendingDebit extends LedgerMovement {
  resolve(balanceAfter: number): void;
  reject(error: unknown): void;
}

/** Largest number of debits one account transaction applies. */
const MAX_GROUP = 512;

/**
 * The credit balance and its append-only ledger, always changed in one transaction.
 *
 * Debits of one account are group-committed: calls that arrive while a transaction for that
 * account is in flight are applied together in the next one, in arrival order. The row lock
 * (`SELECT … FOR NO KEY UPDATE`) serialises instances, so concurrent calls can never overdraw, and
 * a busy account costs one transaction per group instead of one per call.
 */
@Injectable()
export class CreditsService {
  private readonly pending = new Map<string, PendingDebit[]>();
  private readonly flushing = new Set<string>();

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly leases: LeaseRepository,
    @Inject(CORE_CONFIG) private readonly config: CoreConfig,
  ) {}

  /**
   * Debits `cost` credits or throws `insufficient_credits`. Resolves to the balance after.
   * `usage` names the key and the calls it pays for; they are counted in the same transaction.
   */
  debit(
    accountId: string,
    cost: number,
    reason: string,
    reference: string | null,
    usage?: UsageAttribution,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(accountId);
      const item = { delta: -cost, reason, reference, ...attributed(usage), resolve, reject };
      if (queue) queue.push(item);
      else this.pending.set(accountId, [item]);
      if (!this.flushing.has(accountId)) {
        this.flushing.add(accountId);
        setImmediate(() => void this.flush(accountId));
      }
    });
  }

  /**
   * Adds credits (grant, top-up or refund). Resolves to the balance after. A refund passes the
   * usage it takes back (negative calls).
   */
  async credit(
    accountId: string,
    amount: number,
    reason: string,
    reference: string | null,
    usage?: UsageAttribution,
  ): Promise<number> {
    const outcomes = await this.transact(accountId, [
      { delta: amount, reason, reference, ...attributed(usage) },
    ]);
    return outcomes[0]!;
  }

  /** Unreserved credits plus what open credit leases still hold (docs/credits.md). */
  async balance(accountId: string): Promise<number> {
    const balance = await this.leases.balanceWithHeld(accountId);
    if (balance === null) throw new VerityError('not_found', 'account not found');
    return balance;
  }

  /** The error a caller gets when its balance cannot pay; points to the console's billing page. */
  insufficient(cost: number, balance: number): VerityError {
    return new VerityError(
      'insufficient_credits',
      `Insufficient credits: this call costs ${cost} and the balance is ${balance}. ` +
        `Add credits at ${this.config.CONSOLE_URL.replace(/\/$/, '')}/billing`,
    );
  }

  private async flush(accountId: string): Promise<void> {
    const queue = this.pending.get(accountId) ?? [];
    const group = queue.splice(0, MAX_GROUP);
    if (queue.length === 0) this.pending.delete(accountId);
    try {
      // One round trip when the balance covers the whole group (the usual case); movement by
      // movement in an explicit transaction only when some debits must be refused. A group that
      // PostgreSQL aborts for a deadlock with another transaction was rolled back: run it again.
      const { balanceBefore, outcomes } = await retryOnTransactionConflict(
        async () =>
          (await this.ledger.debitWholeGroup(accountId, group)) ??
          (await this.ledger.applyMovements(accountId, group)),
      );
      let balance = balanceBefore;
      group.forEach((item, i) => {
        const after = outcomes[i];
        if (after === null || after === undefined)
          item.reject(this.insufficient(-item.delta, balance));
        else {
          balance = after;
          item.resolve(after);
        }
      });
    } catch (error) {
      for (const item of group) item.reject(error);
    } finally {
      if (this.pending.has(accountId)) setImmediate(() => void this.flush(accountId));
      else this.flushing.delete(accountId);
    }
  }

  private async transact(
    accountId: string,
    movements: LedgerMovement[],
  ): Promise<(number | null)[]> {
    return (
      await retryOnTransactionConflict(() => this.ledger.applyMovements(accountId, movements))
    ).outcomes;
  }
}
