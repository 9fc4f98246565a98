import Redis from 'ioredis';
import type { BucketPolicy, RateLimitDecision, RateLimitStore } from './rate-limit.store';

// Atomic token bucket in Redis, shared by every API instance. Time comes from the Redis
// server (TIME) so instances with skewed clocks agree. Mirrors `decide` in rate-limit.store.ts.
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] then
  tokens = math.min(burst, tonumber(state[1]) + (now - tonumber(state[2])) / 1000 * rate)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

type TakeResult = [number, string];

/** Token buckets in Redis (`REDIS_URL`): one limit across all API instances. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly policy: BucketPolicy,
    private readonly prefix = 'verity:ratelimit:',
    onError: (error: Error) => void = () => undefined,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    // Without a listener ioredis prints "[ioredis] Unhandled error event" to stderr itself.
    this.redis.on('error', onError);
    this.redis.defineCommand('verityTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  /** Redis holds the bucket: every take is a round trip. */
  takeNow(): null {
    return null;
  }

  async take(key: string): Promise<RateLimitDecision> {
    const take = (
      this.redis as unknown as Record<string, (...a: unknown[]) => Promise<TakeResult>>
    )['verityTakeToken'];
    const [allowed, tokensText] = await take.call(
      this.redis,
      this.prefix + key,
      this.policy.ratePerSecond,
      this.policy.burst,
    );
    const tokens = Number(tokensText);
    return {
      allowed: allowed === 1,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((this.policy.burst - tokens) / this.policy.ratePerSecond),
      retryAfterSeconds:
        allowed === 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.policy.ratePerSecond)),
    };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
