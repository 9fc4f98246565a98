import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VerityError } from '@verity/common';
import { TableInspector } from './table.inspector';
import { tableFormat } from './table.format';

const LIMITS = { maxRows: 100, maxBytes: 1 << 16 };

/** Pipes `pieces` through an inspector into memory; returns the inspector and the bytes. */
async function inspect(
  pieces: Buffer[],
  inspector: TableInspector,
): Promise<{ inspector: TableInspector; out: Buffer }> {
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
  return { inspector, out: Buffer.concat(out) };
}

describe('TableInspector', () => {
  it('passes the bytes through unchanged and reports rows, bytes, header and column', async () => {
    const file = Buffer.from('\ufeffid,"E-mail"\r\n1,a@x.io\r\n2,"b@x.io"\r\n', 'utf8');
    const pieces = [file.subarray(0, 2), file.subarray(2, 17), file.subarray(17)];
    const values: string[] = [];
    const inspector = new TableInspector(LIMITS, tableFormat('e-mail', undefined), (v, s, e) =>
      values.push(v.toString('utf8', s, e)),
    );
    const { out } = await inspect(pieces, inspector);
    assert.deepEqual(out, file);
    assert.deepEqual(values, ['a@x.io', 'b@x.io']);
    assert.equal(inspector.rows, 2);
    assert.equal(inspector.bytes, file.length);
    assert.equal(inspector.header, 'id,"E-mail"');
    assert.equal(inspector.columnIndex, 1);
    assert.equal(inspector.width, 2);
  });

  it('errors the pipeline with the reader’s VerityError', async () => {
    const inspector = new TableInspector(LIMITS, tableFormat('2', undefined));
    await assert.rejects(
      inspect([Buffer.from('a,b\nc\n')], inspector),
      (err: unknown) => err instanceof VerityError && /^line 2 has 1 cell/.test(err.message),
    );
    const empty = new TableInspector(LIMITS, tableFormat('1', undefined));
    await assert.rejects(
      inspect([Buffer.from('email\n')], empty),
      (err: unknown) =>
        err instanceof VerityError && err.message === 'file has a header line but no rows',
    );
  });
});
