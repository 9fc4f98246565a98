import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VerityError } from '@verity/common';
import { PendingFormatInspector } from './pending-format.inspector';

/** Streams `text` through an inspector in `size`-byte pieces; the bytes it passed on. */
async function inspect(inspector: PendingFormatInspector, text: string, size = 7): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      out.push(chunk);
      callback();
    },
  });
  await pipeline(Readable.from(pieces), inspector, sink);
  return Buffer.concat(out).toString('utf8');
}

const LIMITS = { maxRows: 10, maxBytes: 200 };

describe('PendingFormatInspector', () => {
  it('counts a single-column file like the upload inspector', async () => {
    const inspector = new PendingFormatInspector(LIMITS);
    const text = 'email\na@x.io\n"b@x.io"\n\nc@x.io';
    assert.equal(await inspect(inspector, text), text);
    assert.equal(inspector.rows, 3);
    assert.equal(inspector.refusal, null);
  });

  it('keeps the single-column refusal of a multi-column file and passes every byte on', async () => {
    const inspector = new PendingFormatInspector(LIMITS);
    const text = 'name,email\n"Doe, Jane",a@x.io\n';
    assert.equal(await inspect(inspector, text), text);
    assert.ok(inspector.refusal instanceof VerityError);
    assert.equal(inspector.refusal.code, 'unprocessable');
    assert.match(inspector.refusal.message, /^line 1 has more than one column/);
  });

  it('keeps a refusal found at the end of the file (too many rows, no rows)', async () => {
    const many = new PendingFormatInspector(LIMITS);
    await inspect(many, 'a@x.io\n'.repeat(11));
    assert.equal(many.refusal?.message, 'file has more than 10 rows');
    const none = new PendingFormatInspector(LIMITS);
    await inspect(none, 'email\n');
    assert.equal(none.refusal?.message, 'file has a header line but no rows');
  });

  it('still cuts a file over the byte limit with 413, before and after a refusal', async () => {
    for (const text of ['a@x.io\n'.repeat(40), `a,b\n${'x'.repeat(300)}`]) {
      await assert.rejects(
        inspect(new PendingFormatInspector(LIMITS), text),
        (error: unknown) =>
          error instanceof VerityError &&
          error.code === 'payload_too_large' &&
          error.message === 'file is larger than the limit of 200 bytes',
      );
    }
  });
});
