import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Bull from 'bull';
import { backendGate, deferred, uniqueName, waitFor } from '@verity/testing';
import { BullJobQueue } from './bull.job-queue';

const redis = backendGate('REDIS_URL');
// Short locks so a dead worker's job is noticed in about a second instead of 30 s.
const settings = { lockDuration: 1_000, stalledInterval: 500, maxStalledCount: 3 };

describe('BullJobQueue', { skip: redis.skip }, () => {
  it('re-runs the job of a worker that died mid-job', { timeout: 30_000 }, async () => {
    const redisUrl = process.env.REDIS_URL!;
    const prefix = uniqueName('verity-test');
    const name = uniqueName('stalled');
    // The doomed worker's queue is made here so the test can cut its connections (a kill -9).
    const doomed = new Bull(name, redisUrl, { prefix, settings });
    doomed.on('error', () => undefined);
    const first = new BullJobQueue({ redisUrl, prefix, queues: new Map([[name, doomed]]) });
    const picked = deferred<string>();
    await first.process(name, 1, (job) => {
      picked.resolve(job.id);
      return new Promise<void>(() => undefined); // never finishes: the process "dies" in here
    });
    const id = await first.add(name, { n: 1 }, { jobId: 'stalled-1' });
    assert.equal(await picked.promise, id);
    await doomed.pause(true, true); // stop fetching without waiting for the hung job
    for (const c of doomed.clients) c.disconnect();

    const second = new BullJobQueue({ redisUrl, prefix, settings });
    const rerun: { id: string; payload: unknown }[] = [];
    await second.process(name, 1, (job) => {
      rerun.push({ id: job.id, payload: job.payload });
      return Promise.resolve();
    });
    try {
      await waitFor('the stalled job to run again', () => rerun.length === 1, 20_000);
      assert.deepEqual(rerun, [{ id: 'stalled-1', payload: { n: 1 } }]);
    } finally {
      await second.obliterateCreated();
      await second.close();
      await doomed.close(true); // its timers would keep the test process alive
    }
  });
});
