import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostPermit, MailHostLimiter, MailHostPolicy } from '@verity/integrations';

const POLICY: MailHostPolicy = {
  maxConcurrent: 2,
  maxPerWindow: 3,
  windowMs: 800,
  leaseMs: 60_000,
  learnedCapMs: 60_000,
};

const tokenOf = (permit: HostPermit): string => {
  assert.ok(permit.granted, JSON.stringify(permit));
  return permit.token;
};

/**
 * The MailHostLimiter contract (SMTP politeness, docs/models/email.md): per host at most
 * `maxConcurrent` slots, `maxPerWindow` starts per window, no slot during a refusal's backoff,
 * and a lowered cap after it. `create` gives a limiter on a fresh store; `second`, when the
 * adapter is shared between processes, a second handle on the same store.
 */
export function mailHostLimiterContract(
  name: string,
  create: (policy: MailHostPolicy) => MailHostLimiter,
  opts: {
    skip?: string | false;
    second?: (first: MailHostLimiter, policy: MailHostPolicy) => MailHostLimiter;
  } = {},
): void {
  describe(`MailHostLimiter contract: ${name}`, { skip: opts.skip }, () => {
    let limiter: MailHostLimiter;
    before(() => {
      limiter = create(POLICY);
    });
    after(() => limiter.close());

    it('answers a readiness ping', async () => {
      await limiter.ping();
    });

    it('grants maxConcurrent slots, then asks to wait; a release frees one', async () => {
      const host = `mx-${randomUUID()}.test`;
      const a = tokenOf(await limiter.acquire(host));
      tokenOf(await limiter.acquire(host));
      const full = await limiter.acquire(host);
      assert.equal(full.granted, false);
      assert.equal(!full.granted && full.cause, 'concurrency');
      assert.ok(!full.granted && full.retryInMs > 0);
      await limiter.release(host, a);
      tokenOf(await limiter.acquire(host));
    });

    it('keeps one count per host', async () => {
      const [h1, h2] = [`mx-${randomUUID()}.test`, `mx-${randomUUID()}.test`];
      tokenOf(await limiter.acquire(h1));
      tokenOf(await limiter.acquire(h1));
      assert.equal((await limiter.acquire(h1)).granted, false);
      assert.equal((await limiter.acquire(h2)).granted, true);
    });

    it('never grants more than the cap to requests at the same moment', async () => {
      const host = `mx-${randomUUID()}.test`;
      const permits = await Promise.all(Array.from({ length: 20 }, () => limiter.acquire(host)));
      assert.equal(permits.filter((p) => p.granted).length, POLICY.maxConcurrent);
    });

    it('caps sessions started per window, released or not, until the window moves on', async () => {
      const host = `mx-${randomUUID()}.test`;
      for (let i = 0; i < POLICY.maxPerWindow; i++) {
        await limiter.release(host, tokenOf(await limiter.acquire(host)));
      }
      const limited = await limiter.acquire(host);
      assert.equal(!limited.granted && limited.cause, 'rate');
      assert.ok(!limited.granted && limited.retryInMs <= POLICY.windowMs, JSON.stringify(limited));
      await sleep(!limited.granted ? limited.retryInMs + 50 : 0);
      tokenOf(await limiter.acquire(host));
    });

    it('backs a refusing host off, then lowers its cap below the sessions it had open', async () => {
      const host = `mx-${randomUUID()}.test`;
      const a = tokenOf(await limiter.acquire(host));
      tokenOf(await limiter.acquire(host));
      await limiter.refused(host, 300);
      const waiting = await limiter.acquire(host);
      assert.equal(!waiting.granted && waiting.cause, 'backoff');
      assert.ok(!waiting.granted && waiting.retryInMs <= 300, JSON.stringify(waiting));
      await limiter.release(host, a);
      await sleep(350);
      // Two were open at the refusal: the cap is now one, and one is still held.
      const capped = await limiter.acquire(host);
      assert.equal(!capped.granted && capped.cause, 'concurrency');
    });

    it('ignores the release of an unknown token', async () => {
      const host = `mx-${randomUUID()}.test`;
      await limiter.release(host, 'not-a-token');
      tokenOf(await limiter.acquire(host));
    });

    it('frees the slot of a holder that never released it once its lease lapses', async () => {
      const short = create({ ...POLICY, leaseMs: 200 });
      try {
        const host = `mx-${randomUUID()}.test`;
        tokenOf(await short.acquire(host));
        tokenOf(await short.acquire(host));
        assert.equal((await short.acquire(host)).granted, false);
        await sleep(250);
        tokenOf(await short.acquire(host));
      } finally {
        await short.close();
      }
    });

    if (opts.second) {
      it('holds the caps across every handle on the store (every scorer)', async () => {
        const other = opts.second!(limiter, POLICY);
        try {
          const host = `mx-${randomUUID()}.test`;
          const permits = await Promise.all(
            Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? limiter : other).acquire(host)),
          );
          assert.equal(permits.filter((p) => p.granted).length, POLICY.maxConcurrent);
          await limiter.refused(host, 10_000);
          const refused = await other.acquire(host);
          assert.equal(!refused.granted && refused.cause, 'backoff');
        } finally {
          await other.close();
        }
      });
    }
  });
}
