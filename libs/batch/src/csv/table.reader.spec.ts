import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError, type ErrorCode } from '@verity/common';
import type { UploadLimits } from './csv.grammar';
import { TableReader } from './table.reader';
import { SINGLE_COLUMN, type TableFormat } from './table.format';

const LIMITS: UploadLimits = { maxRows: 1000, maxBytes: 1 << 20 };

const byIndex = (index: number, header: boolean | 'auto' = 'auto'): TableFormat => ({
  column: { index },
  header,
});

interface Read {
  values: string[];
  lines: string[];
  rows: number;
  header: string | null;
  width: number;
  column: number;
}

/** Reads `buf` cut at the offsets `cuts` (ascending), with a listener. */
function readCut(buf: Buffer, cuts: number[], format: TableFormat, limits: UploadLimits): Read {
  const values: string[] = [];
  const lines: string[] = [];
  const reader = new TableReader(limits, format, (value, vStart, vEnd, line, lStart, lEnd) => {
    values.push(value.toString('utf8', vStart, vEnd));
    lines.push(line.toString('utf8', lStart, lEnd));
  });
  let at = 0;
  for (const cut of [...cuts, buf.length]) {
    reader.write(buf.subarray(at, cut));
    at = cut;
  }
  const rows = reader.end();
  assert.equal(rows, values.length);
  const { header, width, columnIndex: column } = reader;
  assert.equal(reader.hasHeader, header !== null);
  return { values, lines, rows, header, width, column };
}

/** Chunkings to compare: whole, one byte at a time, and (for small files) cut at every offset. */
function chunkings(length: number): number[][] {
  const all: number[][] = [[], Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1)];
  if (length <= 400) for (let cut = 1; cut < length; cut++) all.push([cut]);
  return all;
}

/**
 * Reads `data` whole and in every chunking of `chunkings` (all must agree), and once without a
 * listener (the upload's path: same rows, header, width and column).
 */
function read(data: Buffer | string, format = byIndex(0), limits = LIMITS): Read {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const whole = readCut(buf, [], format, limits);
  for (const cuts of chunkings(buf.length)) {
    assert.deepEqual(readCut(buf, cuts, format, limits), whole, `cut at ${cuts.join(',')}`);
  }
  const counting = new TableReader(limits, format);
  counting.write(buf);
  assert.equal(counting.end(), whole.rows);
  assert.deepEqual(
    [counting.header, counting.width, counting.columnIndex],
    [whole.header, whole.width, whole.column],
  );
  return whole;
}

/** Asserts that reading fails with `code` and a message matching `message`, whatever the chunking. */
function rejects(
  data: Buffer | string,
  code: ErrorCode,
  message: RegExp,
  format = byIndex(0),
  limits = LIMITS,
): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const matches = (err: unknown) =>
    err instanceof VerityError && err.code === code && message.test(err.message);
  for (const cuts of chunkings(buf.length)) {
    assert.throws(() => readCut(buf, cuts, format, limits), matches, `cut at ${cuts.join(',')}`);
  }
  const counting = new TableReader(limits, format);
  assert.throws(() => {
    counting.write(buf);
    counting.end();
  }, matches);
}

describe('TableReader grammar', () => {
  it('reads quoted fields holding commas and escaped quotes', () => {
    const text = 'a,"b,c",d\n"x ""y""",",",""\n';
    assert.deepEqual(read(text, byIndex(1, false)).values, ['b,c', ',']);
    assert.deepEqual(read(text, byIndex(0, false)).values, ['a', 'x "y"']);
    assert.deepEqual(read(text, byIndex(2, false)).values, ['d', '']);
    assert.deepEqual(read('"""",1\n"a""",2\n', byIndex(0, false)).values, ['"', 'a"']);
  });

  it('keeps line breaks inside quotes and counts their lines', () => {
    const text = '"a\nb",1\n"c\r\nd",2\r"e\rf",3\r\n"\n\n",4\nx,"y\nz"';
    const got = read(text, byIndex(0, false));
    assert.deepEqual(got.values, ['a\nb', 'c\r\nd', 'e\rf', '\n\n', 'x']);
    assert.deepEqual(got.lines, ['"a\nb",1', '"c\r\nd",2', '"e\rf",3', '"\n\n",4', 'x,"y\nz"']);
    assert.deepEqual(read(text, byIndex(1, false)).values, ['1', '2', '3', '4', 'y\nz']);
    rejects(`${text}\nw\n`, 'unprocessable', /^line 12 has 1 cell; the first line has 2$/);
  });

  it('ends records at LF, CRLF and a lone CR, with or without a final terminator', () => {
    for (const end of ['', '\n', '\r\n', '\r']) {
      const got = read(`a,1\r\nb,2\nc,3\rd,4${end}`, byIndex(0, false));
      assert.deepEqual(got.values, ['a', 'b', 'c', 'd']);
      assert.deepEqual(got.lines, ['a,1', 'b,2', 'c,3', 'd,4']);
    }
  });

  it('skips wholly empty lines, and numbers lines counting them', () => {
    const got = read('\n\r\n\ra,1\n\n\r\n\rb,2\n\n', byIndex(1, false));
    assert.deepEqual(got.values, ['1', '2']);
    rejects('a,1\n\nb\n', 'unprocessable', /^line 3 has 1 cell; the first line has 2$/);
    rejects('\r\n\r\na,1\r\n\r\nb,2,3\r\n', 'unprocessable', /^line 5 has 3 cells; the first/);
    rejects('a,1\r\rb\r', 'unprocessable', /^line 3 has 1 cell;/);
  });

  it('counts a line of spaces as a record of one empty cell', () => {
    assert.deepEqual(read('a\n  \t\nb\n', byIndex(0, false)).values, ['a', '', 'b']);
    rejects('a,b\n  \n', 'unprocessable', /^line 2 has 1 cell; the first line has 2$/);
  });

  it('trims spaces and tabs around fields, and inside quotes, but keeps the raw line', () => {
    const text = '  a  ,\t" b c "\t, x y \n';
    const got = read(text, byIndex(1, false));
    assert.deepEqual(got.values, ['b c']);
    assert.deepEqual(got.lines, ['  a  ,\t" b c "\t, x y ']);
    assert.deepEqual(read(text, byIndex(0, false)).values, ['a']);
    assert.deepEqual(read(text, byIndex(2, false)).values, ['x y']);
  });

  it('hands out empty cells as rows', () => {
    const got = read('a,,c\n,,\n , "" ,\n', byIndex(1, false));
    assert.deepEqual(got.values, ['', '', '']);
    assert.equal(got.rows, 3);
    assert.deepEqual(read(',x\n', byIndex(0, false)).values, ['']);
  });

  it('takes a quote inside an unquoted field as content', () => {
    assert.deepEqual(read('a"b,2\n', byIndex(0, false)).values, ['a"b']);
  });

  it('reads multi-byte characters whatever the chunking', () => {
    const got = read('é,\u{1F600}\n"ü,\u00df",\u4e2d\n', byIndex(0, false));
    assert.deepEqual(got.values, ['é', 'ü,\u00df']);
    assert.deepEqual(read('é,\u{1F600}\n', byIndex(1, false)).values, ['\u{1F600}']);
  });

  it('skips a leading BOM and refuses one anywhere else', () => {
    const got = read('\ufeffemail,name\nx@y.io,z\n', byIndex(0));
    assert.equal(got.header, 'email,name');
    assert.deepEqual(got.values, ['x@y.io']);
    assert.deepEqual(read('\ufeff"a",b\n', byIndex(0, false)).lines, ['"a",b']);
    rejects('a,b\nc,\ufeffd\n', 'unprocessable', /^line 2 contains a byte order mark/);
    rejects('a,"b\n\ufeff"\n', 'unprocessable', /^line 2 contains a byte order mark/);
    rejects('\ufeff\ufeffa\n', 'unprocessable', /^line 1 contains a byte order mark/);
    assert.deepEqual(read('\ufec0,1\n', byIndex(0, false)).values, ['\ufec0']);
  });

  it('refuses invalid UTF-8 with the byte offset', () => {
    rejects(Buffer.from([0x61, 0x2c, 0xff, 0x0a]), 'unprocessable', /byte offset 2\)$/);
    rejects(Buffer.from([0x61, 0x2c, 0xc3, 0x2c]), 'unprocessable', /byte offset 2\)$/);
    rejects(Buffer.from([0x61, 0x2c, 0xe2, 0x82]), 'unprocessable', /byte offset 2\)$/);
    rejects(Buffer.from([0xef, 0xbb]), 'unprocessable', /byte offset 0\)$/);
    rejects(Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80]), 'unprocessable', /byte offset 2\)$/);
    const long = Buffer.from(`a,b\n"${'\u00e9'.repeat(40)}`);
    rejects(Buffer.concat([long, Buffer.from([0xff, 0x22])]), 'unprocessable', /byte offset 85\)$/);
  });

  it('refuses text after a closing quote, naming its line', () => {
    rejects('a,"b"c\n', 'unprocessable', /^line 1: unexpected character after a closing quote$/);
    rejects('a,1\n"x\ny" z,2\n', 'unprocessable', /^line 3: unexpected character after a/);
    assert.deepEqual(read('"b"  ,1\n', byIndex(0, false)).values, ['b']);
  });

  it('refuses a quote left open at the end, naming the line where it opened', () => {
    rejects(
      'a,1\nb,"c\n\nd\n',
      'unprocessable',
      /^line 2: quoted value is not closed before the end/,
    );
    rejects('a,"', 'unprocessable', /^line 1: quoted value is not closed/);
  });

  it('refuses a record whose width differs from the first one', () => {
    rejects('a,b,c\nd,e\n', 'unprocessable', /^line 2 has 2 cells; the first line has 3$/);
    rejects('a\n"b,c",d\n', 'unprocessable', /^line 2 has 2 cells; the first line has 1$/);
    rejects('h1,h2\na,1\n"p\nq",2,3\n', 'unprocessable', /^line 3 has 3 cells; the first/);
    rejects('a,"x\ny"\nb,1,2\n', 'unprocessable', /^line 3 has 3 cells; the first line has 2$/);
  });
});

describe('TableReader limits', () => {
  it('refuses a file larger than maxBytes with 413', () => {
    const limits = { maxRows: 100, maxBytes: 10 };
    assert.equal(read('a,b\nc,d\ne,f', byIndex(0, false), { maxRows: 100, maxBytes: 11 }).rows, 3);
    rejects(
      'a,b\nc,d\ne,f\n',
      'payload_too_large',
      /larger than the limit of 10 bytes/,
      byIndex(0, false),
      limits,
    );
  });

  it('refuses more rows than maxRows, not counting the header', () => {
    const limits = { maxRows: 2, maxBytes: 1000 };
    assert.equal(read('email,n\na,1\nb,2\n', byIndex(0), limits).rows, 2);
    rejects(
      'a,1\nb,2\nc,3\n',
      'unprocessable',
      /^file has more than 2 rows$/,
      byIndex(0, false),
      limits,
    );
    rejects(
      'email,n\na,1\n"b\n",2\nc,3\n',
      'unprocessable',
      /^file has more than 2 rows$/,
      byIndex(0),
      limits,
    );
  });

  it('refuses a record longer than maxLineBytes, naming the line it starts on', () => {
    const limits = { maxRows: 100, maxBytes: 1000, maxLineBytes: 8 };
    assert.equal(read('a,b\r\n1234,567\r\n"1\n2",4\n', byIndex(0, false), limits).rows, 3);
    rejects(
      'a,b\n1234,5678\n',
      'unprocessable',
      /^line 2: the record starting here is longer than 8 bytes$/,
      byIndex(0, false),
      limits,
    );
    rejects(
      'a,b\n\n"12\n34",567\n',
      'unprocessable',
      /^line 3: the record starting here is longer/,
      byIndex(0, false),
      limits,
    );
    rejects(
      '123456789',
      'unprocessable',
      /^line 1: the record starting here/,
      byIndex(0, false),
      limits,
    );
  });

  it('refuses a file without rows on end, but not on finish', () => {
    rejects('', 'unprocessable', /^file is empty$/);
    rejects('\n\r\n\n', 'unprocessable', /^file is empty$/);
    rejects('email,name\n\n', 'unprocessable', /^file has a header line but no rows$/);
    const reader = new TableReader(LIMITS, byIndex(0));
    reader.write(Buffer.from('email,name\n'));
    assert.equal(reader.finish(), 0);
    assert.equal(reader.header, 'email,name');
    assert.equal(new TableReader(LIMITS, byIndex(0)).finish(), 0);
  });
});

// The single-column file: the one-column case, by its own stricter rules.
const values = (data: Buffer | string, limits = LIMITS): string[] =>
  read(data, SINGLE_COLUMN, limits).values;
const refuses = (data: Buffer | string, code: ErrorCode, message: RegExp, limits = LIMITS): void =>
  rejects(data, code, message, SINGLE_COLUMN, limits);

describe('TableReader, single-column file', () => {
  it('reads one value per line with LF, CRLF and CR line ends, the final one optional', () => {
    assert.deepEqual(values('a@x.io\r\nb@x.io\nc@x.io\rd@x.io\n'), [
      'a@x.io',
      'b@x.io',
      'c@x.io',
      'd@x.io',
    ]);
    assert.deepEqual(values('a\nb'), ['a', 'b']);
  });

  it('drops a leading BOM, and only at the start', () => {
    assert.deepEqual(values('\ufeff"a,b"\n'), ['a,b']);
    refuses('x\n\ufeffy\n', 'unprocessable', /^line 2 contains a byte order mark/);
    refuses('x\ny\ufeff\n', 'unprocessable', /^line 2 contains a byte order mark/);
    refuses('\ufeff\ufeffx\n', 'unprocessable', /^line 1 contains a byte order mark/);
    assert.deepEqual(values('\uffef\ufbbf\n'), ['\uffef\ufbbf']);
    // EF BB 80 is U+FEC0, not a BOM: it must come through intact.
    assert.deepEqual(values('\ufec0z\n'), ['\ufec0z']);
  });

  it('skips blank, whitespace-only and empty quoted lines without counting them', () => {
    assert.deepEqual(values('\n\n  \t \r\n""\n"  "\na\n\n'), ['a']);
  });

  it('unquotes values, unescapes "" and trims spaces and tabs', () => {
    assert.deepEqual(values(' "a,b" \n"say ""hi"""\n\t x y \t\n" q "\na"b\n'), [
      'a,b',
      'say "hi"',
      'x y',
      'q',
      'a"b',
    ]);
  });

  it('refuses more than one column, naming the physical line', () => {
    refuses('a\r\n\r\nb,c\n', 'unprocessable', /^line 3 has more than one column/);
    refuses('a\rb\r\nc,\n', 'unprocessable', /^line 3 has more than one column/);
    refuses(',a\n', 'unprocessable', /^line 1 has several columns: choose the column to check/);
    refuses('"a",b\n', 'unprocessable', /^line 1 has several columns: choose the column to check/);
    refuses('"a" ,b\n', 'unprocessable', /^line 1 has several columns: choose the column to check/);
  });

  it('counts lines the same on its fast paths and off them', () => {
    // Plain rows (the fast paths) between lines they leave to the state machine: padding,
    // quotes, blank lines, a CR that ends one chunk and pairs with the LF opening the next.
    const plain = 'a@x.io\nb@x.io\r\nc@x.io\n';
    const mixed = `${plain} d@x.io\n"e@x.io"\n\r\n\r${plain}`;
    assert.deepEqual(values(mixed), [
      ...['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io'],
      ...['a@x.io', 'b@x.io', 'c@x.io'],
    ]);
    refuses(`${mixed}f,g\n`, 'unprocessable', /^line 11 has more than one column/);
    refuses(`${plain}${'x'.repeat(4097)}\n`, 'unprocessable', /^line 4 is longer than 4096 bytes/);
    refuses(plain, 'unprocessable', /^file has more than 2 rows/, { ...LIMITS, maxRows: 2 });
    // Chunks of only LF-separated lines take the native search: empty lines, control characters.
    assert.deepEqual(values('a@x.io\n\n\x01\x7f\nb@x.io'), ['a@x.io', '\x01\x7f', 'b@x.io']);
    refuses(`a\n\nb\nc\n${'x'.repeat(4097)}`, 'unprocessable', /^line 5 is longer than 4096 bytes/);
    refuses('a\n\nb\nc,d\n', 'unprocessable', /^line 4 has more than one column/);
  });

  it('refuses a quoted value that spans lines or has text after its closing quote', () => {
    refuses('"a\nb"\n', 'unprocessable', /^line 1: quoted value is not closed \(a quoted value/);
    refuses('ok\n"abc', 'unprocessable', /^line 2: quoted value is not closed \(a quoted value/);
    refuses('"a"b\n', 'unprocessable', /^line 1: unexpected character after a closing quote/);
    refuses('"a" \u00e9\n', 'unprocessable', /^line 1: unexpected character/);
  });

  it('refuses invalid UTF-8 with the offset of the offending sequence', () => {
    const bad = (...bytes: number[]) => Buffer.concat([Buffer.from('ab\n'), Buffer.from(bytes)]);
    const offset3 = /^file is not valid UTF-8 \(byte offset 3\)$/;
    refuses(bad(0xff, 0x0a), 'unprocessable', offset3); // never valid
    refuses(bad(0x80), 'unprocessable', offset3); // lone continuation
    refuses(bad(0xc0, 0x80), 'unprocessable', offset3); // overlong
    refuses(bad(0xe0, 0x80, 0x80), 'unprocessable', offset3); // overlong 3-byte
    refuses(bad(0xed, 0xa0, 0x80), 'unprocessable', offset3); // UTF-16 surrogate
    refuses(bad(0xf4, 0x90, 0x80, 0x80), 'unprocessable', offset3); // above U+10FFFF
    refuses(bad(0xe2, 0x41), 'unprocessable', offset3); // truncated mid-file
    refuses(bad(0xe2, 0x82), 'unprocessable', offset3); // truncated at end of file
    refuses(Buffer.from([0xef, 0xbb]), 'unprocessable', /byte offset 0\)$/); // half a BOM
  });

  it('accepts emoji, IDN and every UTF-8 length', () => {
    assert.deepEqual(values('\u{1F600}@b\u00fccher.de\n\u4f8b\u3048@\u4f8b\u3048.jp\n'), [
      '\u{1F600}@b\u00fccher.de',
      '\u4f8b\u3048@\u4f8b\u3048.jp',
    ]);
  });

  it('enforces the row, byte and line limits', () => {
    const rows = { ...LIMITS, maxRows: 2 };
    assert.deepEqual(values('a\n\nb\n\n', rows), ['a', 'b']);
    refuses('a\nb\nc', 'unprocessable', /^file has more than 2 rows$/, rows);
    const bytes = { ...LIMITS, maxBytes: 4 };
    assert.deepEqual(values('a\nb\n', bytes), ['a', 'b']);
    refuses('a\nbc\n', 'payload_too_large', /4 bytes/, bytes);
    const line = { ...LIMITS, maxLineBytes: 5 };
    assert.deepEqual(values('12345\r\n', line), ['12345']);
    refuses('ok\n123456\n', 'unprocessable', /^line 2 is longer than 5 bytes$/, line);
  });

  it('refuses a file without rows as empty', () => {
    for (const data of ['', '\n \n\t\r\n', '\ufeff', '\ufeff\n""\n']) {
      refuses(data, 'unprocessable', /^file is empty$/);
    }
  });
});
