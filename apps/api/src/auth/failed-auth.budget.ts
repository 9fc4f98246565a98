import { VerityError } from '@verity/common';
import type { RateLimitDecision, RateLimitStore } from '../rate-limit/rate-limit.store';

/** Spent subjects remembered at most (a flood of spent addresses costs this much memory). */
const MAX_KNOWN_SPENT = 100_000;

/** Key lookups of one client address in flight on this instance, and the requests waiting. */
interface AddressLookups {
  running: number;
  waiting: (() => void)[];
}

/**
 * The failed-authentication budget of each subject (a client address for API keys; an address,
 * an email or a browser for console sign-ins): a token bucket in a RateLimitStore that only a
 * failed authentication spends, so a valid key is never refused for the failures of others,
 * nor for being new to this instance's key cache.
 *
 * A request whose key is not cached reserves one of the address's remaining tokens for its
 * lookup; a failed lookup spends it, a successful one gives it back. The reservation is what
 * keeps a flood of bad keys sent at once to at most the remaining budget of database lookups:
 * requests beyond it wait for a lookup to end rather than look up too, and are refused (429)
 * once the budget is spent. Reservations are per instance; the spent budget is shared through
 * the store. (OWASP Authentication Cheat Sheet, "Protect Against Automated Attacks".)
 */
export class FailedAuthBudget {
  private readonly addresses = new Map<string, AddressLookups>();
  /**
   * Subjects found spent, and until when (ms): refused here without asking the store again
   * until then. Only a failure spends and time alone refills, so a budget found spent stays
   * spent at least that long (another instance can only spend it further).
   */
  private readonly spent = new Map<string, { until: number; decision: RateLimitDecision }>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly refused: (decision: RateLimitDecision) => VerityError,
  ) {}

  /**
   * Resolves when a key presented from `address` may be checked; throws rate_limited when the
   * address's budget is spent. Every resolved reservation must end with `release`.
   */
  async reserve(address: string): Promise<void> {
    this.refuseIfKnownSpent(address);
    for (;;) {
      const decision = await this.store.peek(address);
      const lookups = this.addresses.get(address) ?? { running: 0, waiting: [] };
      if (!decision.allowed) {
        this.rememberSpent(address, decision);
        // Spent: the next waiter is refused as well, and so on down the queue.
        this.wakeNext(address, lookups);
        throw this.refused(decision);
      }
      if (decision.remaining - lookups.running >= 1) {
        lookups.running++;
        this.addresses.set(address, lookups);
        if (decision.remaining - lookups.running >= 1) this.wakeNext(address, lookups);
        return;
      }
      // Every remaining token is reserved by a lookup in flight: wait for one to end.
      this.addresses.set(address, lookups);
      await new Promise<void>((resolve) => lookups.waiting.push(resolve));
    }
  }

  /** Ends a reservation: a failed authentication spends the address's token. */
  async release(address: string, failed: boolean): Promise<void> {
    try {
      if (failed) await this.store.take(address);
    } finally {
      const lookups = this.addresses.get(address);
      if (lookups) {
        lookups.running--;
        this.wakeNext(address, lookups);
      }
    }
  }

  private refuseIfKnownSpent(subject: string): void {
    const known = this.spent.get(subject);
    if (!known) return;
    const left = known.until - Date.now();
    if (left <= 0) {
      this.spent.delete(subject);
      return;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil(left / 1000));
    throw this.refused({ ...known.decision, retryAfterSeconds });
  }

  private rememberSpent(subject: string, decision: RateLimitDecision): void {
    const now = Date.now();
    if (this.spent.size >= MAX_KNOWN_SPENT)
      for (const [key, known] of this.spent) if (known.until <= now) this.spent.delete(key);
    if (this.spent.size >= MAX_KNOWN_SPENT) return;
    this.spent.set(subject, { until: now + decision.retryAfterSeconds * 1000, decision });
  }

  private wakeNext(address: string, lookups: AddressLookups): void {
    const next = lookups.waiting.shift();
    if (next) next();
    else if (lookups.running === 0) this.addresses.delete(address);
  }
}
