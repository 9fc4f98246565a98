import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageTally } from './local-lease';

describe('UsageTally', () => {
  it('counts calls and credits per key and operation', () => {
    const tally = new UsageTally();
    tally.addCall('key-a', 'email_validate', 1);
    tally.addCall('key-a', 'email_validate', 1);
    tally.addCall('key-a', 'phone_validate', 3);
    tally.addCall('key-b', 'email_validate', 1);
    assert.equal(tally.size, 3);
    assert.deepEqual(
      [...tally.values()],
      [
        { keyId: 'key-a', operation: 'email_validate', calls: 2, credits: 2 },
        { keyId: 'key-a', operation: 'phone_validate', calls: 1, credits: 3 },
        { keyId: 'key-b', operation: 'email_validate', calls: 1, credits: 1 },
      ],
    );
  });

  it('merges usage given back after a failed settle into what was spent since', () => {
    const tally = new UsageTally();
    tally.addCall('key-a', 'ip_intel', 2);
    tally.add({ keyId: 'key-a', operation: 'ip_intel', calls: 5, credits: 10 });
    tally.add({ keyId: 'key-c', operation: 'ip_intel', calls: 1, credits: 2 });
    assert.equal(tally.size, 2);
    assert.deepEqual(
      [...tally.values()].map((u) => [u.keyId, u.calls, u.credits]),
      [
        ['key-a', 6, 12],
        ['key-c', 1, 2],
      ],
    );
  });

  it('keeps a key and an operation apart whatever they contain', () => {
    const tally = new UsageTally();
    tally.addCall('a b', 'c', 1);
    tally.addCall('a', 'b c', 1);
    assert.equal(tally.size, 2);
  });
});
