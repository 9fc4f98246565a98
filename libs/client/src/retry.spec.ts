import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_RETRIES, parseRetryAfter, retryDelayMs } from './retry';
import { CLIENT_VERSION } from './version';

describe('client retry schedule', () => {
  it('is 1 s, 2 s, 4 s over 3 retries', () => {
    assert.equal(DEFAULT_MAX_RETRIES, 3);
    assert.deepEqual(
      [0, 1, 2].map((r) => retryDelayMs(r, null)),
      [1_000, 2_000, 4_000],
    );
  });

  it('waits for Retry-After when it is longer than the backoff, never less than the backoff', () => {
    assert.deepEqual(
      [0, 1, 2].map((r) => retryDelayMs(r, 3)),
      [3_000, 3_000, 4_000],
    );
    assert.deepEqual(
      [0, 1, 2].map((r) => retryDelayMs(r, 0)),
      [1_000, 2_000, 4_000],
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
    for (const bad of [null, '', 'soon', '-3']) assert.equal(parseRetryAfter(bad, now), null);
  });
});

describe('client package', () => {
  it('sends the version of its package.json', () => {
    const pkg = JSON.parse(
      readFileSync(join(__dirname, '../../../../libs/client/package.json'), 'utf8'),
    ) as { version: string; dependencies?: object };
    assert.equal(CLIENT_VERSION, pkg.version);
    assert.equal(pkg.dependencies, undefined, 'the SDK has no runtime dependency');
  });
});
