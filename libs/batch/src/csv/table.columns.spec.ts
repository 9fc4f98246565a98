import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError } from '@verity/common';
import { TableReader } from './table.reader';
import { tableFormat, type TableFormat } from './table.format';

const LIMITS = { maxRows: 1000, maxBytes: 1 << 20 };

interface Read {
  values: string[];
  lines: string[];
  header: string | null;
  column: number;
  width: number;
}

/** Reads `text` whole and one byte at a time; both must agree. */
function read(text: string, format: TableFormat): Read {
  const buf = Buffer.from(text, 'utf8');
  const once = (size: number): Read => {
    const values: string[] = [];
    const lines: string[] = [];
    const reader = new TableReader(LIMITS, format, (value, vStart, vEnd, line, lStart, lEnd) => {
      values.push(value.toString('utf8', vStart, vEnd));
      lines.push(line.toString('utf8', lStart, lEnd));
    });
    for (let i = 0; i < buf.length; i += size) reader.write(buf.subarray(i, i + size));
    reader.end();
    return {
      values,
      lines,
      header: reader.header,
      column: reader.columnIndex,
      width: reader.width,
    };
  };
  const whole = once(buf.length || 1);
  assert.deepEqual(once(1), whole);
  return whole;
}

function rejects(text: string, format: TableFormat, message: RegExp): void {
  for (const size of [1, 1 << 16]) {
    const reader = new TableReader(LIMITS, format);
    const buf = Buffer.from(text, 'utf8');
    assert.throws(
      () => {
        for (let i = 0; i < buf.length; i += size) reader.write(buf.subarray(i, i + size));
        reader.end();
      },
      (err: unknown) =>
        err instanceof VerityError && err.code === 'unprocessable' && message.test(err.message),
    );
  }
}

const FILE = 'Name, "E-mail" ,"Phone, mobile"\nAnn,a@x.io,+1 555\n"Bob ""B""",b@x.io,\n';

describe('TableReader columns and header', () => {
  it('finds a column by its exact name and hands out the raw records', () => {
    const got = read(FILE, tableFormat('E-mail', undefined));
    assert.deepEqual(got.values, ['a@x.io', 'b@x.io']);
    assert.deepEqual(got.lines, ['Ann,a@x.io,+1 555', '"Bob ""B""",b@x.io,']);
    assert.equal(got.header, 'Name, "E-mail" ,"Phone, mobile"');
    assert.equal(got.column, 1);
    assert.equal(got.width, 3);
    assert.deepEqual(read(FILE, tableFormat('Phone, mobile', 'true')).values, ['+1 555', '']);
    assert.deepEqual(read(FILE, tableFormat('Name', undefined)).values, ['Ann', 'Bob "B"']);
  });

  it('falls back to the only column whose name matches ignoring case', () => {
    assert.equal(read(FILE, tableFormat('e-MAIL', undefined)).column, 1);
    // An exact match wins over others that differ only in case.
    assert.equal(read('email,Email\na,b\n', tableFormat('Email', undefined)).column, 1);
  });

  it('refuses a name that matches no column, listing the columns', () => {
    rejects(
      FILE,
      tableFormat('mail', undefined),
      /^no column named "mail" in the header \(columns: Name, E-mail, Phone, mobile\)$/,
    );
    const wide = Array.from({ length: 30 }, (_, i) => `c${i}`).join(',');
    rejects(
      `${wide}\n${wide}\n`,
      tableFormat('x', undefined),
      /\(columns: c0, c1, .*, c9… \(30 in all\)\)$/,
    );
  });

  it('refuses a name that matches several columns', () => {
    rejects(
      'Email,x,EMAIL\n1,2,3\n',
      tableFormat('email', undefined),
      /^the header has several columns named "email": Email, EMAIL$/,
    );
    rejects('a,a\n1,2\n', tableFormat('a', undefined), /several columns named "a"/);
  });

  it('takes a column by index, and refuses one past the last column', () => {
    const got = read('a,b,c\n1,2,3\n', tableFormat('3', 'false'));
    assert.deepEqual(got.values, ['c', '3']);
    assert.equal(got.header, null);
    assert.equal(got.column, 2);
    rejects(
      'a,b,c\n1,2,3\n',
      tableFormat('4', undefined),
      /^column 4 is past the last column \(the file has 3\)$/,
    );
  });

  it('with header=auto, takes the first record as a header when its cell is a column name', () => {
    const got = read('id,Phone\n1,+15550001\n', tableFormat('2', undefined));
    assert.equal(got.header, 'id,Phone');
    assert.deepEqual(got.values, ['+15550001']);
    const none = read('1,+15550001\n2,+15550002\n', tableFormat('2', undefined));
    assert.equal(none.header, null);
    assert.deepEqual(none.values, ['+15550001', '+15550002']);
    // The other cells do not count: only the chosen one is a name or not.
    assert.equal(read('email,x\n1,2\n', tableFormat('2', undefined)).header, null);
    assert.equal(read(' "EMAIL" ,x\n1,2\n', tableFormat('1', undefined)).header, ' "EMAIL" ,x');
  });

  it('with header=true or false, follows it whatever the first record holds', () => {
    assert.deepEqual(read('a@x.io,1\nb@x.io,2\n', tableFormat('1', 'true')).values, ['b@x.io']);
    assert.deepEqual(read('email,1\nb@x.io,2\n', tableFormat('1', 'false')).values, [
      'email',
      'b@x.io',
    ]);
  });

  it('hands out a first record that is no header like any other row', () => {
    const got = read('"a ""q""", x \n', tableFormat('1', 'false'));
    assert.deepEqual(got.values, ['a "q"']);
    assert.deepEqual(got.lines, ['"a ""q""", x ']);
    assert.deepEqual(read('"a ""q""", x \n', tableFormat('2', 'false')).values, ['x']);
  });
});
