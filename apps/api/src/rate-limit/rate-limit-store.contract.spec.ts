import { after } from 'node:test';
import { DataSource } from 'typeorm';
import { RateLimitBucketRepository } from '@verity/accounts';
import { openDatabase } from '@verity/database';
import { backendGate, createTestDatabase, rateLimitStoreContract } from '@verity/testing';
import { MemoryRateLimitStore } from './memory.rate-limit-store';
import { PostgresRateLimitStore } from './postgres.rate-limit-store';
import { RedisRateLimitStore } from './redis.rate-limit-store';

rateLimitStoreContract('memory', (policy) => new MemoryRateLimitStore(policy));

const redis = backendGate('REDIS_URL');
rateLimitStoreContract(
  'redis',
  (policy) =>
    new RedisRateLimitStore(process.env.REDIS_URL!, policy, `verity-test:ratelimit:${Date.now()}:`),
  { skip: redis.skip },
);

let opened: { db: DataSource; drop: () => Promise<void> } | undefined;
after(async () => {
  await opened?.db.destroy();
  await opened?.drop();
});
rateLimitStoreContract('postgres', async (policy) => {
  if (!opened) {
    const database = await createTestDatabase();
    opened = { db: await openDatabase(database.url, 4), drop: () => database.drop() };
  }
  return new PostgresRateLimitStore(
    new RateLimitBucketRepository(opened.db),
    policy,
    `test:${Date.now()}:`,
  );
});
