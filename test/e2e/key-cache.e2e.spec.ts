import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { startTestStack, type TestStack } from '@verity/testing';

/** Key cache entries live 3 s here; a key in use is read again after 80 % of that (2.4 s). */
const TTL_MS = 3_000;

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** Counts the reads of a key row by lookup id that any pg client of this process sends. */
function countKeyReads(): { reads(): number; restore(): void } {
  const query = Reflect.get(Client.prototype, 'query') as (...args: unknown[]) => unknown;
  let reads = 0;
  Reflect.set(Client.prototype, 'query', function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
    if (text?.includes('"api_keys"') && text.includes('"lookup_id" =')) reads++;
    return query.apply(this, args);
  });
  return { reads: () => reads, restore: () => Reflect.set(Client.prototype, 'query', query) };
}

describe('API key cache: one read per key at a time, renewed while in use', () => {
  let a: TestStack;
  let b: TestStack;

  before(async () => {
    a = await startTestStack({ env: { KEY_CACHE_TTL_MS: String(TTL_MS) } });
    b = await startTestStack({ database: a.database, env: { KEY_CACHE_TTL_MS: String(TTL_MS) } });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('calls that miss the cache together share one read of the key', async () => {
    const { apiKey } = await a.account(100);
    const counter = countKeyReads();
    try {
      const onB = b.client.withKey(apiKey);
      const answers = await Promise.all(Array.from({ length: 20 }, () => onB.get('/v1/ping')));
      assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
      assert.equal(counter.reads(), 1);
    } finally {
      counter.restore();
    }
  });

  it('a key in use is read again before its entry expires, so its calls never all miss', async () => {
    const { client } = await a.account(100);
    const counter = countKeyReads();
    try {
      assert.equal((await client.get('/v1/ping')).status, 200);
      const cachedBy = Date.now();
      assert.equal(counter.reads(), 1);
      // Past the refresh point, before the entry expires: answered from the cache, read again.
      await sleepUntil(cachedBy + 2_500);
      assert.equal((await client.get('/v1/ping')).status, 200);
      for (let i = 0; i < 50 && counter.reads() < 2; i++) await sleepUntil(Date.now() + 20);
      assert.equal(counter.reads(), 2);
      // Past the first entry's expiry: the renewed entry answers them all.
      await sleepUntil(cachedBy + TTL_MS + 200);
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.get('/v1/ping')));
      assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
      assert.equal(counter.reads(), 2);
    } finally {
      counter.restore();
    }
  });

  it('a key revoked while its notification was missed stops working within the TTL of its last read', async () => {
    const { accountId, client } = await a.account(100);
    assert.equal((await client.get('/v1/ping')).status, 200);
    // Revoked behind the API's back: no NOTIFY, as if the listener had missed it.
    await a.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [
      accountId,
    ]);
    const revokedAt = Date.now();
    let status = 200;
    // Called without pause: a renewal that did not check the key would keep it alive forever.
    while (status === 200 && Date.now() < revokedAt + 3 * TTL_MS) {
      status = (await client.get('/v1/ping')).status;
      await sleepUntil(Date.now() + 50);
    }
    assert.equal(status, 401);
  });
});
