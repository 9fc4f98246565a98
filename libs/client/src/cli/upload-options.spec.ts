import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { uploadOptions } from './upload-options';
import { UsageError } from './usage.error';

describe('the upload options of batch run', () => {
  it('leaves every option absent when none is given', () => {
    assert.deepEqual(uploadOptions({}), {});
  });

  it('reads --column as a 1-based index when it is digits, else as a header name', () => {
    assert.deepEqual(uploadOptions({ column: '2' }), { column: 2 });
    assert.deepEqual(uploadOptions({ column: 'email' }), { column: 'email' });
    assert.deepEqual(uploadOptions({ column: 'E-mail address' }), { column: 'E-mail address' });
    assert.deepEqual(uploadOptions({ column: '2nd' }), { column: '2nd' });
  });

  it('refuses index 0, an empty name and an index past the safe integers', () => {
    assert.throws(() => uploadOptions({ column: '0' }), /--column 0: a column index counts from 1/);
    assert.throws(() => uploadOptions({ column: ' ' }), UsageError);
    assert.throws(() => uploadOptions({ column: '9'.repeat(20) }), UsageError);
  });

  it('takes --header true|false only with --column', () => {
    assert.deepEqual(uploadOptions({ column: '1', header: 'false' }), { column: 1, header: false });
    assert.deepEqual(uploadOptions({ column: 'email', header: 'true' }), {
      column: 'email',
      header: true,
    });
    assert.throws(() => uploadOptions({ header: 'true' }), /--header goes with --column/);
    assert.throws(
      () => uploadOptions({ column: 'email', header: 'yes' }),
      /--header must be true or false, got "yes"/,
    );
  });

  it('takes --fields spec|all', () => {
    assert.deepEqual(uploadOptions({ fields: 'all' }), { fields: 'all' });
    assert.deepEqual(uploadOptions({ fields: 'spec' }), { fields: 'spec' });
    assert.throws(
      () => uploadOptions({ fields: 'everything' }),
      /--fields must be one of spec, all/,
    );
  });

  it('takes --country as a code for every row and --country-column only with --column', () => {
    assert.deepEqual(uploadOptions({ country: 'gb' }), { countryHint: 'GB' });
    assert.deepEqual(uploadOptions({ column: 'phone', 'country-column': 'country' }), {
      column: 'phone',
      countryColumn: 'country',
    });
    assert.deepEqual(uploadOptions({ column: '2', 'country-column': '3', country: 'FR' }), {
      column: 2,
      countryColumn: 3,
      countryHint: 'FR',
    });
    assert.throws(() => uploadOptions({ country: 'GBR' }), /--country takes an ISO 3166-1/);
    assert.throws(
      () => uploadOptions({ 'country-column': 'country' }),
      /--country-column goes with --column/,
    );
    assert.throws(
      () => uploadOptions({ column: 'phone', 'country-column': '0' }),
      /--country-column 0: a column index counts from 1/,
    );
  });
});
