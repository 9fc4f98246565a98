import {
  decide,
  type BucketPolicy,
  type RateLimitDecision,
  type RateLimitStore,
} from './rate-limit.store';

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_BUCKETS = 100_000;

/** In-process token buckets: the embedded default, exact for a single instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly policy: BucketPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): Promise<RateLimitDecision> {
    return Promise.resolve(this.takeNow(key));
  }

  takeNow(key: string): RateLimitDecision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const refilled = bucket
      ? Math.min(
          this.policy.burst,
          bucket.tokens + ((now - bucket.at) / 1000) * this.policy.ratePerSecond,
        )
      : this.policy.burst;
    const { tokensAfter, decision } = decide(this.policy, refilled);
    if (!bucket && this.buckets.size >= MAX_BUCKETS) this.sweep(now);
    if (bucket) {
      bucket.tokens = tokensAfter;
      bucket.at = now;
    } else this.buckets.set(key, { tokens: tokensAfter, at: now });
    return decision;
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private sweep(now: number): void {
    const fullAfterMs = (this.policy.burst / this.policy.ratePerSecond) * 1000;
    for (const [key, bucket] of this.buckets)
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
  }
}
