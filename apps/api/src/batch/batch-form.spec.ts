import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError } from '@verity/common';
import { checkCountry, checkResultFields, checkTableFormat, requestHash } from './batch-form';

const SHA = 'a'.repeat(64);
const isValidation = (error: unknown) =>
  error instanceof VerityError && error.code === 'validation_error';

describe('batch form fields', () => {
  it('hashes a request without format fields as the plain upload always was', () => {
    const plain = createHash('sha256').update(`email\nhttps://h.example/x\n${SHA}`).digest('hex');
    assert.equal(requestHash('email', 'https://h.example/x', SHA, {}), plain);
    assert.equal(requestHash('email', 'https://h.example/x', SHA, { fields: 'spec' }), plain);
  });

  it('tells requests apart by column, header and fields', () => {
    const hashes = [
      {},
      { column: 'email' },
      { column: '2' },
      { column: '2', header: 'false' },
      { column: 'email', fields: 'all' },
      { fields: 'all' },
      { country_hint: 'GB' },
      { country_hint: 'FR' },
      { column: '2', country_column: '3' },
      { column: '2', country_column: '3', country_hint: 'GB' },
    ].map((form) => requestHash('email', null, SHA, form));
    assert.equal(new Set(hashes).size, hashes.length);
  });

  it('checks fields and the table format; header needs column once every field is in', () => {
    assert.equal(checkResultFields(undefined), 'spec');
    assert.equal(checkResultFields('all'), 'all');
    assert.throws(() => checkResultFields('full'), isValidation);
    assert.equal(checkTableFormat({}, true), null);
    assert.equal(checkTableFormat({ header: 'true' }, false), null);
    assert.throws(() => checkTableFormat({ header: 'true' }, true), isValidation);
    assert.deepEqual(checkTableFormat({ column: '3' }, true), {
      column: { index: 2 },
      header: 'auto',
    });
    assert.throws(() => checkTableFormat({ column: 'email', header: 'no' }, false), isValidation);
  });

  it('checks the country fields: phone jobs only, an ISO code, country_column with column', () => {
    assert.deepEqual(checkCountry({}, 'email', true), { hint: null, column: null });
    assert.deepEqual(checkCountry({ country_hint: '' }, 'email', true), {
      hint: null,
      column: null,
    });
    assert.deepEqual(checkCountry({ country_hint: 'gb' }, 'phone', true), {
      hint: 'GB',
      column: null,
    });
    assert.deepEqual(
      checkCountry({ column: 'phone', country_column: 'country' }, undefined, false),
      { hint: null, column: { name: 'country' } },
    );
    assert.deepEqual(checkCountry({ country_column: '3' }, 'phone', false), {
      hint: null,
      column: { index: 2 },
    });
    for (const [form, type] of [
      [{ country_hint: 'GBR' }, 'phone'],
      [{ country_hint: 'ZZ' }, 'phone'],
      [{ country_hint: 'GB' }, 'email'],
      [{ column: '1', country_column: '2' }, 'ip'],
      [{ country_column: '2' }, 'phone'],
      [{ column: '1', country_column: '-1' }, 'phone'],
      [{ column: '1', header: 'false', country_column: 'country' }, 'phone'],
    ] as const) {
      assert.throws(() => checkCountry(form, type, true), isValidation, JSON.stringify(form));
    }
  });
});
