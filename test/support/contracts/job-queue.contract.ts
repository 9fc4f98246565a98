import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferred, uniqueName, waitFor, type PortHarness } from './contract-helpers';
import type { JobQueue, QueuedJob } from '@verity/ports';

/** Timers may fire a millisecond or two early relative to Date.now(); allow that much. */
const CLOCK_SLACK_MS = 5;

/**
 * The JobQueue contract: every adapter must pass it. Each test uses its own queue name;
 * a fresh adapter instance per test lets `close` be tested too.
 */
export function jobQueueContract<Q extends JobQueue>(
  name: string,
  harness: PortHarness<Q>,
  opts: { skip?: string | false; timeoutMs?: number } = {},
): void {
  const timeout = opts.timeoutMs ?? 30_000;
  describe(`JobQueue contract: ${name}`, { skip: opts.skip }, () => {
    let jq: Q;
    before(async () => {
      jq = await harness.create();
    });
    after(() => harness.dispose(jq));

    it('answers a readiness ping', { timeout }, async () => {
      await jq.ping();
    });

    it('runs jobs with their payload, at most `concurrency` at once', { timeout }, async () => {
      const queue = uniqueName('run');
      const gate = deferred();
      const seen: QueuedJob<{ n: number }>[] = [];
      let active = 0;
      let maxActive = 0;
      await jq.process<{ n: number }>(queue, 2, async (job) => {
        seen.push(job);
        maxActive = Math.max(maxActive, ++active);
        await gate.promise;
        active--;
      });
      const ids = await jq.addBulk(
        queue,
        [1, 2, 3, 4].map((n) => ({ payload: { n } })),
      );
      assert.equal(new Set(ids).size, 4);
      await waitFor('two running', () => active === 2, timeout);
      await sleep(100); // a third would have started by now if the limit were not kept
      assert.equal(active, 2);
      gate.resolve();
      await waitFor('all four', () => seen.length === 4 && active === 0, timeout);
      assert.equal(maxActive, 2);
      assert.deepEqual(seen.map((j) => j.payload.n).sort(), [1, 2, 3, 4]);
      assert.ok(seen.every((j) => j.attempt === 1 && j.queue === queue));
      assert.deepEqual(seen.map((j) => j.id).sort(), [...ids].sort());
    });

    it('runs a jobId once, however often it is added', { timeout }, async () => {
      const queue = uniqueName('dedupe');
      const runs: string[] = [];
      const id1 = await jq.add(queue, { v: 1 }, { jobId: 'job-1' });
      const id2 = await jq.add(queue, { v: 2 }, { jobId: 'job-1' });
      assert.equal(id1, 'job-1');
      assert.equal(id2, 'job-1');
      await jq.process<{ v: number }>(queue, 1, (job) => {
        runs.push(`${job.id}:${job.payload.v}`);
        return Promise.resolve();
      });
      await waitFor('first run', () => runs.length === 1, timeout);
      await jq.addBulk(queue, [{ payload: { v: 3 }, opts: { jobId: 'job-1' } }]);
      await jq.add(queue, { v: 4 }, { jobId: 'job-2' });
      await waitFor('job-2', () => runs.includes('job-2:4'), timeout);
      assert.deepEqual(runs, ['job-1:1', 'job-2:4']);
    });

    it(
      'runs a forgetWhenDone jobId again once it is done, never twice at once',
      { timeout },
      async () => {
        const queue = uniqueName('forget');
        const runs: number[] = [];
        const gate = deferred();
        await jq.process<{ v: number }>(queue, 2, async (job) => {
          runs.push(job.payload.v);
          if (job.payload.v === 1) await gate.promise;
        });
        const opts = { jobId: 'again', forgetWhenDone: true };
        await jq.add(queue, { v: 1 }, opts);
        await waitFor('first run', () => runs.length === 1, timeout);
        // Running: a second add is a no-op.
        await jq.add(queue, { v: 2 }, opts);
        gate.resolve();
        await sleep(200);
        assert.deepEqual(runs, [1]);
        // Done: the id is forgotten, so the same id runs again (the adapter may take a moment
        // to record the end: add until a run of a later payload shows up).
        let v = 3;
        await waitFor(
          'a run of the same id after the first ended',
          async () => {
            await jq.add(queue, { v: v++ }, opts);
            return runs.length > 1;
          },
          timeout,
        );
        assert.ok(!runs.includes(2), `the add while running ran: ${runs.join(',')}`);
        assert.ok(runs[1] >= 3);
      },
    );

    it('retries with exponential backoff, then reports the failure once', { timeout }, async () => {
      const queue = uniqueName('retry');
      const attempts: { attempt: number; at: number }[] = [];
      const failed: { job: QueuedJob<string>; error: Error }[] = [];
      await jq.process<string>(
        queue,
        1,
        async (job) => {
          attempts.push({ attempt: job.attempt, at: Date.now() });
          await Promise.resolve();
          throw new Error(`boom ${job.payload}`);
        },
        (job, error) => failed.push({ job, error }),
      );
      await jq.add(queue, 'x', { attempts: 3, backoffMs: 100 });
      await waitFor('final failure', () => failed.length === 1, timeout);
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        [1, 2, 3],
      );
      assert.ok(attempts[1].at - attempts[0].at >= 100 - CLOCK_SLACK_MS, 'first backoff');
      assert.ok(attempts[2].at - attempts[1].at >= 200 - CLOCK_SLACK_MS, 'doubled backoff');
      assert.equal(failed[0].error.message, 'boom x');
      assert.equal(failed[0].job.attempt, 3);
      assert.equal(failed[0].job.payload, 'x');
      await sleep(300);
      assert.equal(failed.length, 1);
      assert.equal(attempts.length, 3);
    });

    it('caps the backoff at backoffCapMs', { timeout }, async () => {
      const queue = uniqueName('capped');
      const attempts: { attempt: number; at: number }[] = [];
      await jq.process<null>(queue, 1, async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        await Promise.resolve();
        if (job.attempt < 3) throw new Error('transient');
      });
      // Uncapped, the first retry would wait 10 min and the second 20 min.
      await jq.add(queue, null, { attempts: 3, backoffMs: 600_000, backoffCapMs: 100 });
      await waitFor('third attempt', () => attempts.length === 3, timeout);
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        [1, 2, 3],
      );
      assert.ok(attempts[1].at - attempts[0].at >= 100 - CLOCK_SLACK_MS, 'capped wait');
    });

    it('does not report a job that succeeds on a retry', { timeout }, async () => {
      const queue = uniqueName('recover');
      const attempts: number[] = [];
      const failed: string[] = [];
      await jq.process<null>(
        queue,
        1,
        async (job) => {
          attempts.push(job.attempt);
          await Promise.resolve();
          if (job.attempt === 1) throw new Error('transient');
        },
        (job) => failed.push(job.id),
      );
      await jq.add(queue, null, { attempts: 5, backoffMs: 20 });
      await waitFor('second attempt', () => attempts.length === 2, timeout);
      await sleep(200);
      assert.deepEqual(attempts, [1, 2]);
      assert.deepEqual(failed, []);
    });

    it('close waits for in-flight handlers', { timeout }, async () => {
      const own = await harness.create();
      const queue = uniqueName('close');
      const started = deferred();
      let finished = false;
      await own.process(queue, 1, async () => {
        started.resolve();
        await sleep(200);
        finished = true;
      });
      await own.add(queue, {});
      await started.promise;
      await harness.dispose(own);
      assert.equal(finished, true);
    });
  });
}
