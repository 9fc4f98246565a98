import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { counted } from './counted';

describe('counted', () => {
  it('uses the singular for one and the plural otherwise', () => {
    assert.equal(counted(1, 'chunk'), '1 chunk');
    assert.equal(counted(0, 'chunk'), '0 chunks');
    assert.equal(counted(3, 'row'), '3 rows');
    assert.equal(counted(2, 'entry', 'entries'), '2 entries');
  });
});
