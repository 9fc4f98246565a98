import { backendGate, rateLimitStoreContract } from '@verity/testing';
import { MemoryRateLimitStore } from './memory.rate-limit-store';
import { RedisRateLimitStore } from './redis.rate-limit-store';

rateLimitStoreContract('memory', (policy) => new MemoryRateLimitStore(policy));

const redis = backendGate('REDIS_URL');
rateLimitStoreContract(
  'redis',
  (policy) =>
    new RedisRateLimitStore(process.env.REDIS_URL!, policy, `verity-test:ratelimit:${Date.now()}:`),
  { skip: redis.skip },
);
