import { after } from 'node:test';
import Redis from 'ioredis';
import { backendGate, historyStoreContract } from '@verity/testing';
import { MemoryHistoryStore } from './memory.history-store';
import { RedisHistoryStore } from './redis.history-store';

historyStoreContract(
  'memory',
  (policy) => new MemoryHistoryStore(policy, { maxEntries: 100_000, maxRecentCalls: 10_000 }),
);

const redis = backendGate('REDIS_URL');
const prefix = `verity-test:history:${Date.now()}:`;
historyStoreContract(
  'redis',
  (policy) => new RedisHistoryStore(process.env.REDIS_URL!, policy, prefix),
  { skip: redis.skip },
);

// The shared Redis keeps nothing of the run (its values would otherwise live for the retention).
after(async () => {
  if (redis.skip) return;
  const client = new Redis(process.env.REDIS_URL!);
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 }))
    if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
  await client.quit();
});
