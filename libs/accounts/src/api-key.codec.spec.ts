import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiKeyMatches,
  hashApiKey,
  isWellFormedApiKey,
  keyHint,
  keyModeOf,
  lookupIdOf,
  mintApiKey,
} from './api-key.codec';

describe('api key codec', () => {
  it('mints keys of the documented shape', () => {
    const key = mintApiKey();
    assert.match(key.value, /^vrt_live_[0-9A-Za-z]{24}$/);
    assert.ok(isWellFormedApiKey(key.value));
    assert.equal(key.lookupId, lookupIdOf(key.value));
    assert.equal(key.hash.length, 32);
  });

  it('never mints the same key twice in a sample', () => {
    const values = new Set(Array.from({ length: 2000 }, () => mintApiKey().value));
    assert.equal(values.size, 2000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) for (const c of mintApiKey().value.slice(9)) seen.add(c);
    assert.equal(seen.size, 62);
  });

  it('matches only the exact value', () => {
    const key = mintApiKey();
    assert.ok(apiKeyMatches(key.value, key.hash));
    const tampered = key.value.slice(0, -1) + (key.value.endsWith('a') ? 'b' : 'a');
    assert.equal(apiKeyMatches(tampered, key.hash), false);
  });

  it('stores the SHA-256 of the key, so keys stored by earlier versions still match', () => {
    // Computed outside Node: printf 'vrt_live_0123456789ABCDEFabcdefgh' | sha256sum
    const stored = Buffer.from(
      'c55e73bbc688df4dc7c53cb6923ea9bfdcacc65151e59ce00b667666e07b7351',
      'hex',
    );
    assert.deepEqual(hashApiKey('vrt_live_0123456789ABCDEFabcdefgh'), stored);
    assert.ok(apiKeyMatches('vrt_live_0123456789ABCDEFabcdefgh', stored));
  });

  it('mints test keys as vrt_test_ + 24 characters, told apart by prefix, hint and hash', () => {
    const test = mintApiKey('test');
    assert.match(test.value, /^vrt_test_[0-9A-Za-z]{24}$/);
    assert.ok(isWellFormedApiKey(test.value));
    assert.equal(keyModeOf(test.value), 'test');
    assert.equal(keyModeOf(mintApiKey().value), 'live');
    assert.equal(keyHint(test.lookupId, 'test'), `vrt_test_${test.value.slice(9, 13)}…`);
    // The same random part under the other prefix is another key: its hash does not match.
    const asLive = 'vrt_live_' + test.value.slice(9);
    assert.equal(lookupIdOf(asLive), test.lookupId);
    assert.equal(apiKeyMatches(asLive, test.hash), false);
  });

  it('hints show the prefix and 4 of the 24 secret characters, never more', () => {
    const live = mintApiKey();
    const hint = keyHint(live.lookupId, 'live');
    assert.equal(hint, `vrt_live_${live.value.slice(9, 13)}…`);
    assert.equal(hint.length - 'vrt_live_…'.length, 4);
  });

  it('rejects malformed values', () => {
    for (const bad of [
      '',
      'vrt_live_',
      'vrt_prod_' + 'a'.repeat(24),
      'vrt_test_' + 'a'.repeat(23),
      'vrt_live_' + 'a'.repeat(23),
      'vrt_live_' + '!'.repeat(24),
    ]) {
      assert.equal(isWellFormedApiKey(bad), false, bad);
    }
  });
});
