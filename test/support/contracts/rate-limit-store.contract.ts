import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  BucketPolicy,
  RateLimitStore,
} from '../../../apps/api/src/rate-limit/rate-limit.store';

/**
 * The RateLimitStore contract: a token bucket per key with `burst` capacity refilled at
 * `ratePerSecond`. Every adapter must pass it.
 */
export function rateLimitStoreContract(
  name: string,
  create: (policy: BucketPolicy) => RateLimitStore | Promise<RateLimitStore>,
  opts: { skip?: string | false } = {},
): void {
  describe(`RateLimitStore contract: ${name}`, { skip: opts.skip }, () => {
    const policy = { ratePerSecond: 2, burst: 3 };
    let store: RateLimitStore;
    before(async () => {
      store = await create(policy);
    });
    after(() => store.close());

    it('answers a readiness ping', async () => {
      await store.ping();
    });

    it('allows a burst, then refuses with the time until the next token', async () => {
      const key = randomUUID();
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await store.take(key));
      assert.deepEqual(
        taken.map((d) => d.allowed),
        [true, true, true, false],
      );
      assert.deepEqual(
        taken.slice(0, 3).map((d) => d.remaining),
        [2, 1, 0],
      );
      const refused = taken[3];
      assert.equal(refused.remaining, 0);
      assert.ok(refused.retryAfterSeconds >= 1);
      assert.ok(refused.resetSeconds >= 1 && refused.resetSeconds <= 2);
    });

    it('keeps one bucket per key', async () => {
      const a = randomUUID();
      const b = randomUUID();
      for (let i = 0; i < 3; i++) await store.take(a);
      assert.equal((await store.take(a)).allowed, false);
      assert.equal((await store.take(b)).allowed, true);
    });

    it('refills over time', async () => {
      const key = randomUUID();
      for (let i = 0; i < 3; i++) await store.take(key);
      assert.equal((await store.take(key)).allowed, false);
      // A refused take costs nothing; at 2 tokens/s one is back within a second.
      for (let i = 0; i < 50; i++) {
        await sleep(100);
        if ((await store.take(key)).allowed) return;
      }
      assert.fail('the bucket never refilled');
    });

    it('answers takeNow from the same bucket as take, or leaves it to take', async () => {
      const key = randomUUID();
      const first = store.takeNow(key);
      const second = await store.take(key);
      if (first === null) {
        // A remote store: takeNow took nothing, so take found the bucket full.
        assert.equal(second.remaining, policy.burst - 1);
        return;
      }
      assert.equal(first.allowed, true);
      assert.equal(first.remaining, policy.burst - 1);
      assert.equal(second.remaining, policy.burst - 2);
      assert.equal(store.takeNow(key)?.remaining, 0);
      const refused = store.takeNow(key);
      assert.equal(refused?.allowed, false);
      assert.ok((refused?.retryAfterSeconds ?? 0) >= 1);
      assert.equal((await store.take(key)).allowed, false);
    });

    it('peeks at a bucket without taking from it', async () => {
      const key = randomUUID();
      const fresh = await store.peek(key);
      assert.equal(fresh.allowed, true);
      assert.equal(fresh.remaining, policy.burst);
      await store.take(key);
      assert.equal((await store.peek(key)).remaining, policy.burst - 1);
      assert.equal((await store.peek(key)).remaining, policy.burst - 1);
      for (let i = 1; i < policy.burst; i++) await store.take(key);
      const spent = await store.peek(key);
      assert.equal(spent.allowed, false);
      assert.ok(spent.retryAfterSeconds >= 1);
      assert.equal((await store.take(key)).allowed, false);
    });

    it('never allows more than the burst to concurrent takers', async () => {
      const key = randomUUID();
      const decisions = await Promise.all(Array.from({ length: 20 }, () => store.take(key)));
      assert.equal(decisions.filter((d) => d.allowed).length, 3);
    });
  });
}
