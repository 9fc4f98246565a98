import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webhookRetryDelayMs } from './webhook.retry';

describe('webhookRetryDelayMs', () => {
  it('doubles from the base and caps at 1 h', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 8, 20].map((n) => webhookRetryDelayMs(n, 30_000)),
      [30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000],
    );
    assert.throws(() => webhookRetryDelayMs(0, 30_000), RangeError);
  });
});
