import type { RateLimitBucketRepository } from '@verity/accounts';
import {
  decisionAt,
  type BucketPolicy,
  type RateLimitDecision,
  type RateLimitStore,
} from './rate-limit.store';

/** Full buckets are forgotten at most this often (one DELETE per store). */
const FORGET_EVERY_MS = 60_000;

/**
 * Token buckets in PostgreSQL (rate_limit_buckets), shared by every API instance on the
 * database: for limits that must hold across instances when there is no Redis, and that are
 * rare enough to afford a statement per decision (sign-in attempts, never single calls).
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private lastForget = 0;

  constructor(
    private readonly buckets: RateLimitBucketRepository,
    private readonly policy: BucketPolicy,
    private readonly prefix: string,
  ) {}

  /** The database holds the bucket: every take is a round trip. */
  takeNow(): null {
    return null;
  }

  async take(key: string): Promise<RateLimitDecision> {
    this.forgetFull();
    const { allowed, tokens } = await this.buckets.take(
      this.prefix + key,
      this.policy.ratePerSecond,
      this.policy.burst,
    );
    return decisionAt(this.policy, allowed, tokens);
  }

  async peek(key: string): Promise<RateLimitDecision> {
    const tokens = await this.buckets.peek(
      this.prefix + key,
      this.policy.ratePerSecond,
      this.policy.burst,
    );
    return decisionAt(this.policy, tokens >= 1, tokens);
  }

  ping(): Promise<void> {
    return this.buckets.ping();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Drops this store's buckets that have refilled completely: forgetting them changes nothing. */
  private forgetFull(): void {
    const now = Date.now();
    if (now - this.lastForget < FORGET_EVERY_MS) return;
    this.lastForget = now;
    const fullAfterSeconds = this.policy.burst / this.policy.ratePerSecond;
    this.buckets.forgetFull(this.prefix, fullAfterSeconds).catch(() => undefined);
  }
}
