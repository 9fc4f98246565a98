import { backendGate, mailHostLimiterContract } from '@verity/testing';
import { MemoryMailHostLimiter } from './memory.mail-host-limiter';
import { RedisMailHostLimiter } from './redis.mail-host-limiter';

mailHostLimiterContract('memory', (policy) => new MemoryMailHostLimiter(policy));

const redis = backendGate('REDIS_URL');
const prefix = `verity-test:smtp-host:${Date.now()}:`;
mailHostLimiterContract(
  'redis',
  (policy) => new RedisMailHostLimiter(process.env.REDIS_URL!, policy, prefix),
  {
    skip: redis.skip,
    second: (_first, policy) => new RedisMailHostLimiter(process.env.REDIS_URL!, policy, prefix),
  },
);
