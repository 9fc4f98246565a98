import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { VerityError } from '@verity/common';
import { readChunks, type RowChunk } from './chunk.reader';

async function collect(source: Readable, chunkRows: number, fromRow = 0): Promise<RowChunk[]> {
  const out: RowChunk[] = [];
  for await (const chunk of readChunks(source, chunkRows, fromRow)) out.push(chunk);
  return out;
}

const fromString = (text: string): Readable => Readable.from([Buffer.from(text, 'utf8')]);

describe('readChunks', () => {
  it('numbers chunks 0,1,2 with 0-based first rows and a short last chunk', async () => {
    const chunks = await collect(fromString('a\nb\n\nc\nd\ne'), 2);
    assert.deepEqual(chunks, [
      { chunkNo: 0, firstRow: 0, rows: ['a', 'b'] },
      { chunkNo: 1, firstRow: 2, rows: ['c', 'd'] },
      { chunkNo: 2, firstRow: 4, rows: ['e'] },
    ]);
  });

  it('re-emits identical chunks on a re-run, whatever the byte chunking', async () => {
    const text = '\ufeff"x,1"\r\n\r\ny\n  \n"z ""q"""\n\u{1F600}@m\u00fcnchen.de\n';
    const whole = await collect(fromString(text), 2);
    const bytes = Buffer.from(text, 'utf8');
    const oneByOne = await collect(Readable.from([...bytes].map((b) => Buffer.from([b]))), 2);
    assert.deepEqual(oneByOne, whole);
    assert.deepEqual(
      whole.flatMap((c) => c.rows),
      ['x,1', 'y', 'z "q"', '\u{1F600}@m\u00fcnchen.de'],
    );
  });

  it('resumes at a chunk boundary with the numbering of a read from the start', async () => {
    const text = 'a\n\nb\nc\n  \nd\ne\n';
    const whole = await collect(fromString(text), 2);
    assert.deepEqual(await collect(fromString(text), 2, 2), whole.slice(1));
    assert.deepEqual(await collect(fromString(text), 2, 6), []);
    await assert.rejects(collect(fromString(text), 2, 3), RangeError);
  });

  it('yields nothing for a file without rows', async () => {
    assert.deepEqual(await collect(fromString('\n \n""\n'), 10), []);
  });

  it('throws 422 for a row with more than one column', async () => {
    await assert.rejects(
      collect(fromString('a\nb,c\n'), 10),
      (err: unknown) =>
        err instanceof VerityError && err.code === 'unprocessable' && /line 2/.test(err.message),
    );
  });

  it('rethrows an error of the source stream', async () => {
    const source = new PassThrough();
    source.write('a\nb\n');
    setImmediate(() => source.destroy(new Error('blob store connection reset')));
    await assert.rejects(collect(source, 1), /blob store connection reset/);
  });

  it('destroys the source when the consumer stops early', async () => {
    const source = new PassThrough();
    source.write('a\nb\nc\n');
    for await (const chunk of readChunks(source, 1)) {
      assert.deepEqual(chunk.rows, ['a']);
      break;
    }
    assert.equal(source.destroyed, true);
  });

  it('rejects a chunk size that is not a positive integer', async () => {
    await assert.rejects(collect(fromString('a'), 0), RangeError);
  });
});
