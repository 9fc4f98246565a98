/** The outcome of taking one token from a key's bucket. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (only meaningful when not allowed). */
  retryAfterSeconds: number;
}

/** A token bucket per key: `burst` capacity, refilled at `ratePerSecond`. */
export interface RateLimitStore {
  take(key: string): Promise<RateLimitDecision>;
  /**
   * The same as `take`, answered without a promise by a store that decides in this process
   * (the hot path then costs no microtask); null from a store that must ask elsewhere, whose
   * caller then uses `take`. A non-null answer has taken its token.
   */
  takeNow(key: string): RateLimitDecision | null;
  /**
   * The decision `take` would give now, taking nothing: `allowed` when a token is there,
   * `remaining` the whole tokens there are.
   */
  peek(key: string): Promise<RateLimitDecision>;
  /** Readiness: resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface BucketPolicy {
  ratePerSecond: number;
  burst: number;
}

/** Pure bucket arithmetic shared by both stores (the Redis script mirrors it). */
export function decide(
  policy: BucketPolicy,
  tokensBefore: number,
): { tokensAfter: number; decision: RateLimitDecision } {
  const allowed = tokensBefore >= 1;
  const tokensAfter = allowed ? tokensBefore - 1 : tokensBefore;
  return { tokensAfter, decision: decisionAt(policy, allowed, tokensAfter) };
}

/** The decision for a bucket holding `tokens` once the request's own token (if any) is out. */
export function decisionAt(
  policy: BucketPolicy,
  allowed: boolean,
  tokens: number,
): RateLimitDecision {
  return {
    allowed,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((policy.burst - tokens) / policy.ratePerSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / policy.ratePerSecond)),
  };
}
