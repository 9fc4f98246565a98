// The in-process store's bounds (the contract suite covers its behaviour): past maxEntries the
// least recently used values are forgotten, the recently used kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HISTORY_CONTRACT_POLICY } from '@verity/testing';
import { MemoryHistoryStore } from './memory.history-store';

describe('MemoryHistoryStore bounds', () => {
  it('forgets the least recently used values past maxEntries, keeps the recently used', async () => {
    let now = 1_000_000;
    const store = new MemoryHistoryStore(
      HISTORY_CONTRACT_POLICY,
      { maxEntries: 100, maxRecentCalls: 10 },
      () => now,
    );
    const seen = async (key: string) => {
      now += 1;
      const [value] = await store.observe(
        'scope',
        now,
        [{ key, linked: true, member: `m-${key}` }],
        { requestId: `r${now}`, values: {} },
      );
      return value.calls;
    };
    for (let i = 0; i < 40; i++) await seen(`old${i}`);
    await seen('kept');
    for (let i = 0; i < 40; i++) await seen(`new${i}`);
    await seen('kept');
    // 82 values with a member each: 164 entries, so the oldest went.
    assert.equal(await seen('old0'), 1, 'the least recently used value was forgotten');
    assert.equal(await seen('kept'), 3, 'a value in use was kept');
    assert.equal(await seen('new39'), 2);
  });

  it('holds a recent call at least recentTtlMs and at most twice that', async () => {
    const ttl = HISTORY_CONTRACT_POLICY.recentTtlMs;
    let now = 0;
    const store = new MemoryHistoryStore(
      HISTORY_CONTRACT_POLICY,
      { maxEntries: 100, maxRecentCalls: 1_000 },
      () => now,
    );
    await store.observe('scope', now, [], { requestId: 'a', values: { ip: 'a' } });
    now = ttl;
    assert.deepEqual(await store.recentCall('scope', 'a'), { ip: 'a' });
    assert.equal(await store.recentCall('other', 'a'), null);
    now = 2 * ttl + 1;
    assert.equal(await store.recentCall('scope', 'a'), null);
  });
});
