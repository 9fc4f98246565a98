import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LruTtlCache } from './lru.cache';

describe('LruTtlCache', () => {
  it('evicts the least recently used entry when full', () => {
    const cache = new LruTtlCache<number>(2);
    cache.set('a', 1, 1_000);
    cache.set('b', 2, 1_000);
    assert.equal(cache.get('a'), 1); // a is now the most recent
    cache.set('c', 3, 1_000);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
  });

  it('expires entries after their TTL', () => {
    let now = 0;
    const cache = new LruTtlCache<number>(10, () => now);
    cache.set('a', 1, 100);
    now = 99;
    assert.equal(cache.get('a'), 1);
    now = 100;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
  });

  it('does not store entries with a zero TTL', () => {
    const cache = new LruTtlCache<number>(10);
    cache.set('a', 1, 0);
    assert.equal(cache.size, 0);
  });

  it('re-setting a key refreshes its value, TTL and recency without growing', () => {
    let now = 0;
    const cache = new LruTtlCache<number>(2, () => now);
    cache.set('a', 1, 100);
    cache.set('b', 2, 100);
    now = 50;
    cache.set('a', 10, 100); // a: expires at 150, most recent
    assert.equal(cache.size, 2);
    cache.set('c', 3, 1_000); // evicts b, the least recent
    assert.equal(cache.get('b'), undefined);
    now = 120;
    assert.equal(cache.get('a'), 10);
    now = 150;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.size, 1);
  });

  it('evicts in least-recently-used order over many reads, like a reference model', () => {
    const cache = new LruTtlCache<number>(5);
    const model: string[] = []; // least recent first
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let i = 0; i < 2_000; i++) {
      const key = `k${next() % 9}`;
      if (next() % 2 === 0) {
        const expected = model.includes(key) ? Number(key.slice(1)) : undefined;
        assert.equal(cache.get(key), expected);
        if (expected !== undefined) model.push(...model.splice(model.indexOf(key), 1));
      } else {
        cache.set(key, Number(key.slice(1)), 60_000);
        if (model.includes(key)) model.splice(model.indexOf(key), 1);
        model.push(key);
        if (model.length > 5) model.shift();
      }
      assert.equal(cache.size, model.length);
    }
  });

  it('is empty after clear and usable again', () => {
    const cache = new LruTtlCache<number>(2);
    cache.set('a', 1, 1_000);
    cache.set('b', 2, 1_000);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.get('a'), undefined);
    cache.set('c', 3, 1_000);
    cache.set('d', 4, 1_000);
    cache.set('e', 5, 1_000);
    assert.deepEqual([cache.get('c'), cache.get('d'), cache.get('e')], [undefined, 4, 5]);
  });
});
