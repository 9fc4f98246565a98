import { BullJobQueue } from '../adapters/bull.job-queue';
import { MemoryJobQueue } from '../adapters/memory.job-queue';
import { backendGate, uniqueName, jobQueueContract } from '@verity/testing';

jobQueueContract('memory', {
  create: () => Promise.resolve(new MemoryJobQueue()),
  dispose: (q) => q.close(),
});

const redis = backendGate('REDIS_URL');
// One prefix per run keeps test keys apart from a developer's real queues.
const prefix = uniqueName('verity-test');
jobQueueContract(
  'bull',
  {
    create: () => Promise.resolve(new BullJobQueue({ redisUrl: process.env.REDIS_URL!, prefix })),
    dispose: async (q) => {
      await q.obliterateCreated();
      await q.close();
    },
  },
  { skip: redis.skip },
);
