import {
  decide,
  decisionAt,
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
    const { tokensAfter, decision } = decide(this.policy, this.tokens(bucket, now));
    if (!bucket && this.buckets.size >= MAX_BUCKETS) this.sweep(now);
    if (bucket) {
      bucket.tokens = tokensAfter;
      bucket.at = now;
    } else this.buckets.set(key, { tokens: tokensAfter, at: now });
    return decision;
  }

  peek(key: string): Promise<RateLimitDecision> {
    const tokens = this.tokens(this.buckets.get(key), this.now());
    return Promise.resolve(decisionAt(this.policy, tokens >= 1, tokens));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The tokens a bucket holds at `now` (a bucket never seen is full). */
  private tokens(bucket: Bucket | undefined, now: number): number {
    return bucket
      ? Math.min(
          this.policy.burst,
          bucket.tokens + ((now - bucket.at) / 1000) * this.policy.ratePerSecond,
        )
      : this.policy.burst;
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private sweep(now: number): void {
    const fullAfterMs = (this.policy.burst / this.policy.ratePerSecond) * 1000;
    for (const [key, bucket] of this.buckets)
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
  }
}
