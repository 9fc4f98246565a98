import type Redis from 'ioredis';
import { openRedis } from '@verity/integrations';
import {
  decisionAt,
  type BucketPolicy,
  type RateLimitDecision,
  type RateLimitStore,
} from './rate-limit.store';

// The tokens of the bucket KEYS[1] now. Time comes from the Redis server (TIME) so instances
// with skewed clocks agree.
const REFILLED = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] then
  tokens = math.min(burst, tonumber(state[1]) + (now - tonumber(state[2])) / 1000 * rate)
end
`;

// Atomic token bucket in Redis, shared by every API instance. Mirrors `decide` in
// rate-limit.store.ts.
const TAKE_SCRIPT = `${REFILLED}
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

// The bucket as `take` would find it, left unchanged.
const PEEK_SCRIPT = `${REFILLED}
return tostring(tokens)
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
    this.redis = openRedis(url, onError);
    this.redis.defineCommand('verityTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis.defineCommand('verityPeekTokens', { numberOfKeys: 1, lua: PEEK_SCRIPT });
  }

  /** Redis holds the bucket: every take is a round trip. */
  takeNow(): null {
    return null;
  }

  async take(key: string): Promise<RateLimitDecision> {
    const [allowed, tokens] = await this.run<TakeResult>('verityTakeToken', key);
    return decisionAt(this.policy, allowed === 1, Number(tokens));
  }

  async peek(key: string): Promise<RateLimitDecision> {
    const tokens = Number(await this.run<string>('verityPeekTokens', key));
    return decisionAt(this.policy, tokens >= 1, tokens);
  }

  /** Runs one of the scripts defined in the constructor on the bucket of `key`. */
  private run<T>(command: string, key: string): Promise<T> {
    const script = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<T>>)[
      command
    ];
    return script.call(this.redis, this.prefix + key, this.policy.ratePerSecond, this.policy.burst);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
