import { backendGate, historyStoreContract } from '@verity/testing';
import { MemoryHistoryStore } from './memory.history-store';
import { RedisHistoryStore } from './redis.history-store';

historyStoreContract(
  'memory',
  (policy) => new MemoryHistoryStore(policy, { maxEntries: 100_000, maxRecentCalls: 10_000 }),
);

const redis = backendGate('REDIS_URL');
historyStoreContract(
  'redis',
  (policy) =>
    new RedisHistoryStore(process.env.REDIS_URL!, policy, `verity-test:history:${Date.now()}:`),
  { skip: redis.skip },
);
