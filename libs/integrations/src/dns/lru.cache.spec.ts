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
});
