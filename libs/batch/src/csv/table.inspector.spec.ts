import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VerityError } from '@verity/common';
import { TableInspector } from './table.inspector';
import { SINGLE_COLUMN, tableFormat } from './table.format';

const LIMITS = { maxRows: 100, maxBytes: 1 << 16 };

/** Pipes `pieces` through an inspector into memory; returns the bytes it passed on. */
async function inspect(pieces: Buffer[], inspector: TableInspector): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(pieces),
    inspector,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out.push(chunk);
        callback();
      },
    }),
  );
  return Buffer.concat(out);
}

/** `text` in pieces of `size` bytes. */
function pieces(text: string, size = 7): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const isError =
  (message: RegExp | string, code = 'unprocessable') =>
  (err: unknown) =>
    err instanceof VerityError &&
    err.code === code &&
    (typeof message === 'string' ? err.message === message : message.test(err.message));

describe('TableInspector', () => {
  it('passes the bytes through unchanged and reports rows, bytes, header and column', async () => {
    const file = Buffer.from('\ufeffid,"E-mail"\r\n1,a@x.io\r\n2,"b@x.io"\r\n', 'utf8');
    const values: string[] = [];
    const inspector = new TableInspector(LIMITS, tableFormat('e-mail', undefined), {
      onRow: (v, s, e) => values.push(v.toString('utf8', s, e)),
    });
    const out = await inspect(
      [file.subarray(0, 2), file.subarray(2, 17), file.subarray(17)],
      inspector,
    );
    assert.deepEqual(out, file);
    assert.deepEqual(values, ['a@x.io', 'b@x.io']);
    assert.equal(inspector.rows, 2);
    assert.equal(inspector.bytes, file.length);
    assert.deepEqual(inspector.input, { column: 1, header: 'id,"E-mail"', width: 2 });
  });

  it('reads the single-column file, which stores no input format', async () => {
    const text = '\ufeffa@x.io\r\n"b,c"\n\n\u{1F600}@x.io';
    const inspector = new TableInspector(LIMITS, SINGLE_COLUMN);
    assert.equal((await inspect(pieces(text, 3), inspector)).toString('utf8'), text);
    assert.equal(inspector.rows, 3);
    assert.equal(inspector.bytes, Buffer.byteLength(text));
    assert.equal(inspector.input, null);
  });

  it('errors the pipeline with the reader’s VerityError', async () => {
    await assert.rejects(
      inspect(pieces('a,b\nc\n'), new TableInspector(LIMITS, tableFormat('2', undefined))),
      isError(/^line 2 has 1 cell/),
    );
    await assert.rejects(
      inspect(pieces('email\n'), new TableInspector(LIMITS, tableFormat('1', undefined))),
      isError('file has a header line but no rows'),
    );
    await assert.rejects(
      inspect(pieces('a\nb,c\n'), new TableInspector(LIMITS, SINGLE_COLUMN)),
      isError(/^line 2 has more than one column/),
    );
    const small = { ...LIMITS, maxBytes: 2 };
    await assert.rejects(
      inspect(pieces('abc'), new TableInspector(small, SINGLE_COLUMN)),
      isError('file is larger than the limit of 2 bytes', 'payload_too_large'),
    );
  });
});

describe('TableInspector holding its refusal back', () => {
  const LIMITS = { maxRows: 10, maxBytes: 200 };
  const holding = () => new TableInspector(LIMITS, SINGLE_COLUMN, { holdRefusal: true });

  it('counts a file that follows the rules', async () => {
    const inspector = holding();
    const text = 'email\na@x.io\n"b@x.io"\n\nc@x.io';
    assert.equal((await inspect(pieces(text), inspector)).toString('utf8'), text);
    assert.equal(inspector.rows, 3);
    assert.equal(inspector.refusal, null);
  });

  it('keeps the refusal of a file that breaks them and passes every byte on', async () => {
    const inspector = holding();
    const text = 'name,email\n"Doe, Jane",a@x.io\n';
    assert.equal((await inspect(pieces(text), inspector)).toString('utf8'), text);
    assert.ok(
      isError(/^line 1 has several columns: choose the column to check/)(inspector.refusal),
    );
  });

  it('keeps a refusal found at the end of the file (too many rows, no rows)', async () => {
    const many = holding();
    await inspect(pieces('a@x.io\n'.repeat(11)), many);
    assert.equal(many.refusal?.message, 'file has more than 10 rows');
    const none = holding();
    await inspect(pieces('email\n'), none);
    assert.equal(none.refusal?.message, 'file has a header line but no rows');
  });

  it('still cuts a file over the byte limit with 413, before and after a refusal', async () => {
    for (const text of ['a@x.io\n'.repeat(40), `a,b\n${'x'.repeat(300)}`]) {
      await assert.rejects(
        inspect(pieces(text), holding()),
        isError('file is larger than the limit of 200 bytes', 'payload_too_large'),
      );
    }
  });
});
