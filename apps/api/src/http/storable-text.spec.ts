import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstUnstorablePath, isStorableText } from './storable-text';

describe('storable text', () => {
  it('accepts text PostgreSQL stores unchanged, paired surrogates included', () => {
    assert.equal(isStorableText('jane@example.com 😀 é'), true);
    assert.equal(isStorableText('a\u0000b'), false);
    assert.equal(isStorableText('\ud83d'), false);
    assert.equal(isStorableText('x\ude00'), false);
  });

  it('finds nothing in a storable body', () => {
    assert.equal(
      firstUnstorablePath({ email: 'jane@example.com', tags: ['a', { b: 'c' }] }),
      undefined,
    );
    assert.equal(firstUnstorablePath(null), undefined);
    assert.equal(firstUnstorablePath(42), undefined);
  });

  it('names the first unstorable string by its path', () => {
    assert.equal(firstUnstorablePath('a\u0000'), '');
    assert.equal(firstUnstorablePath({ email: 'a\u0000b' }), 'email');
    assert.equal(
      firstUnstorablePath({ ok: 'x', list: ['fine', { deep: '\ud800' }] }),
      'list.1.deep',
    );
  });

  it('names an unstorable key, escaped, after the path that leads to it', () => {
    assert.equal(firstUnstorablePath({ outer: { 'k\u0000': 'v' } }), 'outer.k\\u0000');
    assert.equal(firstUnstorablePath({ first: 'a\u0000', second: { 'k\u0000': 1 } }), 'first');
  });
});
