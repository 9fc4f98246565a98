import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EntitySubscriberInterface } from 'typeorm';
import { startTestStack, type TestStack } from '@verity/testing';

const BURST = 20;
const RATE = 1;

/**
 * The failed-authentication budget per client address (AUTH_RATE_LIMIT_*) is spent only by
 * keys that fail: valid keys on their first call (an empty key cache after a restart) are all
 * served, and a flood of bad keys still reaches the database at most the budget's times.
 */
describe('the failed-authentication budget is spent only by failed keys', () => {
  let stack: TestStack;
  /** Key reads from the database (api_keys by lookup_id) since the stack started. */
  let keyLookups = 0;

  before(async () => {
    stack = await startTestStack({
      env: {
        // Every test speaks from its own address (X-Forwarded-For from the loopback proxy).
        TRUST_PROXY: '127.0.0.1',
        AUTH_RATE_LIMIT_PER_SECOND: String(RATE),
        AUTH_RATE_LIMIT_BURST: String(BURST),
        RATE_LIMIT_PER_SECOND: '1000',
        RATE_LIMIT_BURST: '1000',
      },
    });
    const counter: EntitySubscriberInterface = {
      beforeQuery(event) {
        if (/FROM "api_keys"/.test(event.query) && /"lookup_id"/.test(event.query)) keyLookups++;
      },
    };
    stack.dataSource.subscribers.push(counter);
  });
  after(() => stack.close());

  it('serves 300 valid keys making their first call at once from one address', async () => {
    const address = '198.51.100.10';
    const keys: string[] = [];
    for (let i = 0; i < 300; i++) keys.push((await stack.account(1, `first-call-${i}`)).apiKey);
    const answers = await Promise.all(
      keys.map((key) => stack.client.withKey(key).get('/v1/ping', { 'x-forwarded-for': address })),
    );
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    assert.deepEqual([...statuses], [[200, 300]]);
    // None of them spent the address's budget: a whole burst of bad keys is still answered 401.
    const bad = stack.client.withKey('vrt_live_' + 'Q'.repeat(24));
    for (let i = 0; i < BURST; i++) {
      const res = await bad.get('/v1/ping', { 'x-forwarded-for': address });
      assert.equal(res.status, 401, `bad key ${i + 1} of ${BURST}: ${JSON.stringify(res.body)}`);
    }
  });

  it('stops a flood of bad keys with no more database lookups than the budget', async () => {
    const address = '198.51.100.11';
    const { client: known } = await stack.account(1, 'known');
    assert.equal((await known.get('/v1/ping', { 'x-forwarded-for': address })).status, 200);
    const lookupsBefore = keyLookups;
    const started = Date.now();
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        stack.client
          .withKey(
            i % 10 === 0 ? `bad-${i}` : 'vrt_live_' + String(i).padStart(8, '0') + 'x'.repeat(16),
          )
          .get('/v1/ping', { 'x-forwarded-for': address }),
      ),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const lookups = keyLookups - lookupsBefore;
    // The bucket refills at RATE while the flood lasts: that much more budget is fair.
    const budget = BURST + Math.ceil(elapsedSeconds * RATE);
    const refused = flood.filter((a) => a.status === 429);
    const unauthorized = flood.filter((a) => a.status === 401);
    assert.equal(refused.length + unauthorized.length, flood.length);
    assert.ok(
      unauthorized.length <= budget,
      `${unauthorized.length} answered 401 (budget ${budget})`,
    );
    assert.ok(lookups <= budget, `${lookups} key lookups in the database (budget ${budget})`);
    assert.ok(refused.length >= flood.length - budget);
    assert.equal(refused[0].body.error.code, 'rate_limited');
    assert.ok(Number(refused[0].headers.get('retry-after')) >= 1);
    // A key already verified on this instance needs no budget.
    assert.equal((await known.get('/v1/ping', { 'x-forwarded-for': address })).status, 200);
  });
});
