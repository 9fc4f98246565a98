import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BLOCK_SECONDS, FIRST_BLOCK, MAX_BLOCK, blockSize, nextRate } from './lease-size';

describe('credit lease block size', () => {
  it('asks for a first block before the rate is known, never less than the call', () => {
    assert.equal(blockSize(0, 1), FIRST_BLOCK);
    assert.equal(blockSize(0, FIRST_BLOCK + 5), FIRST_BLOCK + 5);
  });

  it('follows the recent rate: BLOCK_SECONDS of spending, capped', () => {
    assert.equal(blockSize(400, 1), 400 * BLOCK_SECONDS);
    assert.equal(blockSize(0.1, 3), 3);
    assert.equal(blockSize(1e9, 1), MAX_BLOCK);
  });

  it('averages the rate over settle intervals, half weight to the last one', () => {
    assert.equal(nextRate(0, 100, 1000), 50);
    assert.equal(nextRate(50, 100, 1000), 75);
    assert.equal(nextRate(100, 0, 500), 50);
  });
});
