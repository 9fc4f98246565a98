import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VerityError, type ErrorCode } from '@verity/common';
import { UploadInspector, inspectUpload } from './upload.inspector';
import { InputReader } from './input.reader';
import type { UploadLimits } from './csv.grammar';

const LIMITS: UploadLimits = { maxRows: 1000, maxBytes: 1 << 20 };

/**
 * Scans `data` split into chunks of `size` bytes and returns the extracted values. A second
 * reader without a listener (the fast path the API uses) must count the same rows.
 */
function scan(data: Buffer | string, size = 1 << 16, limits = LIMITS): string[] {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const values: string[] = [];
  const extracting = new InputReader(limits, (b, start, end) =>
    values.push(b.toString('utf8', start, end)),
  );
  const counting = new InputReader(limits);
  for (let i = 0; i < buf.length; i += size) {
    extracting.write(buf.subarray(i, i + size));
    counting.write(buf.subarray(i, i + size));
  }
  const rows = extracting.end();
  assert.equal(rows, values.length);
  assert.equal(counting.end(), rows);
  return values;
}

/** Scans without extracting values: the API's path. */
function count(buf: Buffer, size: number, limits: UploadLimits): number {
  const reader = new InputReader(limits);
  for (let i = 0; i < buf.length; i += size) reader.write(buf.subarray(i, i + size));
  return reader.end();
}

/** Asserts that scanning fails with `code` and a message matching `message`, whatever the chunking. */
function rejects(data: Buffer | string, code: ErrorCode, message: RegExp, limits = LIMITS): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const matches = (err: unknown) =>
    err instanceof VerityError && err.code === code && message.test(err.message);
  for (const size of [1, 2, 7, 1 << 16]) {
    assert.throws(() => scan(buf, size, limits), matches, `chunk size ${size}`);
    assert.throws(() => count(buf, size, limits), matches, `counting, chunk size ${size}`);
  }
}

describe('InputReader', () => {
  it('reads one value per line with LF, CRLF and CR line ends', () => {
    for (const size of [1, 3, 1 << 16]) {
      assert.deepEqual(scan('a@x.io\r\nb@x.io\nc@x.io\rd@x.io\n', size), [
        'a@x.io',
        'b@x.io',
        'c@x.io',
        'd@x.io',
      ]);
    }
  });

  it('accepts a missing final newline', () => {
    assert.deepEqual(scan('a\nb'), ['a', 'b']);
  });

  it('drops a leading BOM even when split across chunks, and only at the start', () => {
    assert.deepEqual(scan('\ufeff"a,b"\n', 1), ['a,b']);
    rejects('x\n\ufeffy\n', 'unprocessable', /^line 2 contains a byte order mark/);
    rejects('x\ny\ufeff\n', 'unprocessable', /^line 2 contains a byte order mark/);
    rejects('\ufeff\ufeffx\n', 'unprocessable', /^line 1 contains a byte order mark/);
    assert.deepEqual(scan('\uffef\ufbbf\n', 1), ['\uffef\ufbbf']);
    // EF BB 80 is U+FEC0, not a BOM: it must come through intact.
    assert.deepEqual(scan('\ufec0z\n', 1), ['\ufec0z']);
    assert.deepEqual(scan('\u00e9\n', 1), ['\u00e9']);
  });

  it('skips blank, whitespace-only and empty quoted lines without counting them', () => {
    assert.deepEqual(scan('\n\n  \t \r\n""\n"  "\na\n\n'), ['a']);
  });

  it('unquotes values, unescapes "" and trims spaces and tabs', () => {
    assert.deepEqual(scan(' "a,b" \n"say ""hi"""\n\t x y \t\n" q "\na"b\n'), [
      'a,b',
      'say "hi"',
      'x y',
      'q',
      'a"b',
    ]);
  });

  it('rejects more than one column, naming the physical line', () => {
    rejects('a\r\n\r\nb,c\n', 'unprocessable', /^line 3 has more than one column/);
    rejects('a\rb\r\nc,\n', 'unprocessable', /^line 3 has more than one column/);
    rejects(',a\n', 'unprocessable', /^line 1 has more than one column/);
    rejects('"a",b\n', 'unprocessable', /^line 1 has more than one column/);
    rejects('"a" ,b\n', 'unprocessable', /^line 1 has more than one column/);
  });

  it('counts lines the same on its whole-row fast path and off it', () => {
    // Plain rows (the fast path) between lines it leaves to the state machine: padding,
    // quotes, blank lines, a CR that ends one chunk and pairs with the LF opening the next.
    const plain = 'a@x.io\nb@x.io\r\nc@x.io\n';
    const mixed = `${plain} d@x.io\n"e@x.io"\n\r\n\r${plain}`;
    assert.deepEqual(scan(mixed, 7), [
      ...['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io'],
      ...['a@x.io', 'b@x.io', 'c@x.io'],
    ]);
    rejects(`${mixed}f,g\n`, 'unprocessable', /^line 11 has more than one column/);
    rejects(`${plain}${'x'.repeat(4097)}\n`, 'unprocessable', /^line 4 is longer than 4096 bytes/);
    rejects(plain, 'unprocessable', /^file has more than 2 rows/, { ...LIMITS, maxRows: 2 });
    // Chunks of only LF-separated lines take the native search: empty lines, control characters.
    for (const size of [1, 3, 1 << 16]) {
      assert.deepEqual(scan('a@x.io\n\n\x01\x7f\nb@x.io', size), ['a@x.io', '\x01\x7f', 'b@x.io']);
    }
    rejects(`a\n\nb\nc\n${'x'.repeat(4097)}`, 'unprocessable', /^line 5 is longer than 4096 bytes/);
    rejects('a\n\nb\nc,d\n', 'unprocessable', /^line 4 has more than one column/);
  });

  it('rejects a quoted value that spans lines or has text after its closing quote', () => {
    rejects('"a\nb"\n', 'unprocessable', /^line 1: quoted value is not closed/);
    rejects('ok\n"abc', 'unprocessable', /^line 2: quoted value is not closed/);
    rejects('"a"b\n', 'unprocessable', /^line 1: unexpected character after a closing quote/);
    rejects('"a" \u00e9\n', 'unprocessable', /^line 1: unexpected character/);
  });

  it('rejects invalid UTF-8 with the offset of the offending sequence', () => {
    const bad = (...bytes: number[]) => Buffer.concat([Buffer.from('ab\n'), Buffer.from(bytes)]);
    const offset3 = /^file is not valid UTF-8 \(byte offset 3\)$/;
    rejects(bad(0xff, 0x0a), 'unprocessable', offset3); // never valid
    rejects(bad(0x80), 'unprocessable', offset3); // lone continuation
    rejects(bad(0xc0, 0x80), 'unprocessable', offset3); // overlong
    rejects(bad(0xe0, 0x80, 0x80), 'unprocessable', offset3); // overlong 3-byte
    rejects(bad(0xed, 0xa0, 0x80), 'unprocessable', offset3); // UTF-16 surrogate
    rejects(bad(0xf4, 0x90, 0x80, 0x80), 'unprocessable', offset3); // above U+10FFFF
    rejects(bad(0xe2, 0x41), 'unprocessable', offset3); // truncated mid-file
    rejects(bad(0xe2, 0x82), 'unprocessable', offset3); // truncated at end of file
    rejects(Buffer.from([0xef, 0xbb]), 'unprocessable', /byte offset 0\)$/); // half a BOM
  });

  it('accepts emoji, IDN and every UTF-8 length', () => {
    assert.deepEqual(scan('\u{1F600}@b\u00fccher.de\n\u4f8b\u3048@\u4f8b\u3048.jp\n', 1), [
      '\u{1F600}@b\u00fccher.de',
      '\u4f8b\u3048@\u4f8b\u3048.jp',
    ]);
  });

  it('enforces the row limit exactly', () => {
    const limits = { ...LIMITS, maxRows: 2 };
    assert.deepEqual(scan('a\n\nb\n\n', 1 << 16, limits), ['a', 'b']);
    rejects('a\nb\nc', 'unprocessable', /^file has more than 2 rows$/, limits);
  });

  it('enforces the byte limit with 413 payload_too_large', () => {
    const limits = { ...LIMITS, maxBytes: 4 };
    assert.deepEqual(scan('a\nb\n', 1, limits), ['a', 'b']);
    rejects('a\nbc\n', 'payload_too_large', /4 bytes/, limits);
    assert.equal(new VerityError('payload_too_large', 'x').status, 413);
  });

  it('enforces the line length limit', () => {
    const limits = { ...LIMITS, maxLineBytes: 5 };
    assert.deepEqual(scan('12345\r\n', 1, limits), ['12345']);
    rejects('ok\n123456\n', 'unprocessable', /^line 2 is longer than 5 bytes$/, limits);
  });

  it('rejects a file without rows as empty', () => {
    for (const data of ['', '\n \n\t\r\n', '\ufeff', '\ufeff\n""\n']) {
      rejects(data, 'unprocessable', /^file is empty$/);
    }
  });
});

describe('UploadInspector', () => {
  it('passes the bytes through unchanged and exposes the row count', async () => {
    const input = Buffer.from('\ufeffa@x.io\r\n"b,c"\n\n\u{1F600}@x.io', 'utf8');
    const chunks = [input.subarray(0, 2), input.subarray(2, 9), input.subarray(9)];
    const out: Buffer[] = [];
    const inspector = new UploadInspector(LIMITS);
    await pipeline(
      Readable.from(chunks),
      inspector,
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          out.push(chunk);
          cb();
        },
      }),
    );
    assert.deepEqual(Buffer.concat(out), input);
    assert.equal(inspector.rows, 3);
    assert.equal(inspector.bytes, input.length);
  });

  it('errors the pipeline with the VerityError', async () => {
    await assert.rejects(
      inspectUpload(Readable.from([Buffer.from('a\nb,c\n')]), LIMITS),
      (err: unknown) => err instanceof VerityError && err.status === 422,
    );
    await assert.rejects(
      inspectUpload(Readable.from([Buffer.from('abc')]), { ...LIMITS, maxBytes: 2 }),
      (err: unknown) => err instanceof VerityError && err.status === 413,
    );
  });

  it('reports rows and bytes of a valid upload', async () => {
    const result = await inspectUpload(Readable.from([Buffer.from('1.1.1.1\n8.8.8.8\n')]), LIMITS);
    assert.deepEqual(result, { rows: 2, bytes: 16 });
  });
});
