import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CarrierTable } from './carrier-table';

describe('CarrierTable', () => {
  it('loads Google carrier data once and answers by longest prefix', () => {
    const table = CarrierTable.load();
    assert.ok(table.size > 20_000, `size ${table.size}`);
    assert.equal(table.lookup('44', '7400123456'), 'Three');
    assert.equal(table.lookup('86', '19912345678'), 'China Telecom');
    assert.equal(table.lookup('1', '2015550123'), null); // US: no range holders in the data
    assert.equal(table.lookup('999', '123'), null);
  });

  it('prefers the longest matching prefix', () => {
    const table = CarrierTable.fromEntries({ '44': { '7': 'Short', '740': 'Long' } });
    assert.equal(table.lookup('44', '7400123456'), 'Long');
    assert.equal(table.lookup('44', '7100123456'), 'Short');
    assert.equal(table.lookup('44', '2000000000'), null);
  });
});
