import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cappedBackoffMs, jitteredBackoffMs } from './backoff';

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 8, 20, 100].map((n) => cappedBackoffMs(n, 30_000, 3_600_000)),
      [30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000],
    );
    assert.throws(() => cappedBackoffMs(0, 100, 1_000), RangeError);
  });

  it('jitters below the capped delay', () => {
    assert.equal(
      jitteredBackoffMs(3, 100, 5_000, () => 0),
      0,
    );
    assert.equal(
      jitteredBackoffMs(3, 100, 5_000, () => 0.5),
      200,
    );
    assert.equal(
      jitteredBackoffMs(20, 100, 5_000, () => 0.999),
      4_995,
    );
  });
});
