import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VerityError } from '@verity/common';
import { readChunks } from './chunk.reader';
import { HEADER_NAMES } from './header.names';
import { SINGLE_COLUMN } from './table.format';
import { TableInspector } from './table.inspector';
import { TableReader } from './table.reader';

const LIMITS = { maxRows: 10, maxBytes: 1 << 20 };

/** Values handed out and rows counted without a listener, reading `text` in chunks of `size`. */
function read(text: string, size: number): { values: string[]; counted: number; header: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  const values: string[] = [];
  const extracting = new TableReader(LIMITS, SINGLE_COLUMN, (b, start, end) =>
    values.push(b.toString('utf8', start, end)),
  );
  const counting = new TableReader(LIMITS, SINGLE_COLUMN);
  for (let i = 0; i < bytes.length; i += size) {
    extracting.write(bytes.subarray(i, i + size));
    counting.write(bytes.subarray(i, i + size));
  }
  assert.equal(extracting.end(), values.length);
  return { values, counted: counting.end(), header: counting.hasHeader };
}

const SPELLINGS = [
  ...HEADER_NAMES,
  'Email',
  'EMAIL',
  'E-Mail',
  'Email_Address',
  'Phone_Number',
  'MSISDN',
  'IP_Addr',
  'IpAddress',
];

describe('header line', () => {
  it('skips every spelling of a column name, in any case, quoted or padded, uncounted', () => {
    for (const name of SPELLINGS) {
      for (const line of [name, `"${name}"`, `  ${name}\t`, ` " ${name} " `]) {
        for (const eol of ['\n', '\r\n']) {
          for (const size of [1, 3, 1 << 16]) {
            const got = read(`${line}${eol}a@x.io${eol}b@x.io${eol}`, size);
            assert.deepEqual(got.values, ['a@x.io', 'b@x.io'], `${JSON.stringify(line)} / ${size}`);
            assert.equal(got.counted, 2, `${JSON.stringify(line)} / ${size}`);
            assert.equal(got.header, true);
          }
        }
      }
    }
  });

  it('skips a header after a byte order mark and blank lines', () => {
    assert.deepEqual(read('\ufeff\n  \nphone\n+14155550100\n', 2).values, ['+14155550100']);
  });

  it('keeps a first line that is a valid value or not a column name as a row', () => {
    const firsts = [
      'email@example.com',
      'mail@example.com',
      '+14155550100',
      '8.8.8.8',
      'emails',
      'e mail',
      'phone number',
    ];
    for (const first of firsts) {
      for (const size of [1, 1 << 16]) {
        const got = read(`${first}\nb@x.io\n`, size);
        assert.deepEqual(got.values, [first, 'b@x.io'], first);
        assert.equal(got.counted, 2, first);
        assert.equal(got.header, false, first);
      }
    }
  });

  it('treats only the first value as a possible header', () => {
    const got = read('a@x.io\nemail\nphone\n', 1 << 16);
    assert.deepEqual(got.values, ['a@x.io', 'email', 'phone']);
    assert.equal(got.counted, 3);
  });

  it('reports a file that is only a header as having no rows', () => {
    for (const text of ['email\n', 'email', '"IP"\r\n\r\n']) {
      assert.throws(
        () => read(text, 1 << 16),
        (err: unknown) =>
          err instanceof VerityError &&
          err.code === 'unprocessable' &&
          err.message === 'file has a header line but no rows',
      );
    }
  });

  it('does not count the header against the row limit', () => {
    const rows = Array.from({ length: LIMITS.maxRows }, (_, i) => `u${i}@x.io`);
    assert.equal(read(`email\n${rows.join('\n')}\n`, 5).counted, LIMITS.maxRows);
  });

  it('gives the upload count and the split the same rows', async () => {
    const text = 'Email_Address\na@x.io\nb@x.io\nc@x.io\n';
    const inspector = new TableInspector(LIMITS, SINGLE_COLUMN);
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await pipeline(Readable.from([Buffer.from(text)]), inspector, discard);
    const split: string[] = [];
    for await (const chunk of readChunks(Readable.from([Buffer.from(text)]), 2)) {
      split.push(...chunk.rows);
    }
    assert.equal(inspector.rows, 3);
    assert.deepEqual(split, ['a@x.io', 'b@x.io', 'c@x.io']);
  });
});
