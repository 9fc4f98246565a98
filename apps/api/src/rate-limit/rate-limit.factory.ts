import type { Logger } from 'pino';
import type { RateLimitBucketRepository } from '@verity/accounts';
import type { CoreConfig } from '@verity/config';
import { MemoryRateLimitStore } from './memory.rate-limit-store';
import { PostgresRateLimitStore } from './postgres.rate-limit-store';
import type { BucketPolicy, RateLimitStore } from './rate-limit.store';
import { RedisRateLimitStore } from './redis.rate-limit-store';

/** Token buckets in Redis when REDIS_URL is set (shared by all instances), else in memory. */
function createStore(
  config: Pick<CoreConfig, 'REDIS_URL'>,
  policy: BucketPolicy,
  prefix: string,
  logger: Logger | null,
): RateLimitStore {
  return config.REDIS_URL
    ? redisStore(config.REDIS_URL, policy, prefix, logger)
    : new MemoryRateLimitStore(policy);
}

function redisStore(
  url: string,
  policy: BucketPolicy,
  prefix: string,
  logger: Logger | null,
): RedisRateLimitStore {
  return new RedisRateLimitStore(url, policy, prefix, (err) =>
    logger?.warn({ err, store: prefix }, 'rate-limit store: Redis error'),
  );
}

/**
 * Limits that must hold across every API instance even without Redis (the console's sign-in
 * limits): in Redis when REDIS_URL is set, else in PostgreSQL, which every instance shares.
 */
export function createSharedRateLimitStore(
  config: Pick<CoreConfig, 'REDIS_URL'>,
  buckets: RateLimitBucketRepository,
  policy: BucketPolicy,
  prefix: string,
  logger: Logger | null = null,
): RateLimitStore {
  return config.REDIS_URL
    ? redisStore(config.REDIS_URL, policy, prefix, logger)
    : new PostgresRateLimitStore(buckets, policy, prefix);
}

/** Requests per API key. */
export function createKeyRateLimitStore(
  config: CoreConfig,
  logger: Logger | null = null,
): RateLimitStore {
  const policy = { ratePerSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST };
  return createStore(config, policy, 'verity:ratelimit:', logger);
}

/** Requests without a cached key, per client address: bounds what bad keys cost. */
export function createAuthRateLimitStore(
  config: CoreConfig,
  logger: Logger | null = null,
): RateLimitStore {
  const policy = {
    ratePerSecond: config.AUTH_RATE_LIMIT_PER_SECOND,
    burst: config.AUTH_RATE_LIMIT_BURST,
  };
  return createStore(config, policy, 'verity:authlimit:', logger);
}
