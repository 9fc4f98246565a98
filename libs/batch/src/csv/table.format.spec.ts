import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError } from '@verity/common';
import { tableFormat } from './table.format';

function refused(column: string, header: string | undefined, message: RegExp): void {
  assert.throws(
    () => tableFormat(column, header),
    (err: unknown) =>
      err instanceof VerityError && err.code === 'validation_error' && message.test(err.message),
  );
}

describe('tableFormat', () => {
  it('reads a decimal column as a 1-based index, header auto unless given', () => {
    assert.deepEqual(tableFormat('1', undefined), { column: { index: 0 }, header: 'auto' });
    assert.deepEqual(tableFormat(' 12 ', 'true'), { column: { index: 11 }, header: true });
    assert.deepEqual(tableFormat('007', 'false'), { column: { index: 6 }, header: false });
  });

  it('reads anything else as a header name, header true', () => {
    assert.deepEqual(tableFormat('email', undefined), { column: { name: 'email' }, header: true });
    assert.deepEqual(tableFormat('E-mail 2', 'true'), {
      column: { name: 'E-mail 2' },
      header: true,
    });
    assert.deepEqual(tableFormat('1a', undefined), { column: { name: '1a' }, header: true });
  });

  it('refuses an empty column, an index that is not a positive integer, and a bad header', () => {
    refused('', undefined, /^column must be a header name or a 1-based index$/);
    refused('  ', undefined, /^column must be/);
    for (const bad of ['0', '-1', '1.5', '+2', '.5', '99999999999999999999']) {
      refused(bad, undefined, /is not a valid index \(columns are numbered from 1\)$/);
    }
    refused('1', 'yes', /^header must be true or false, got "yes"$/);
    refused('email', 'TRUE', /^header must be true or false/);
    refused('email', 'false', /^a column name needs header=true$/);
  });
});
