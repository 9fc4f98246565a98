import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { VerityError } from '@verity/common';
import type { RowChunk } from './chunk.reader';
import { readTableChunksInto, type TableRowCollector } from './table.chunks';
import { tableFormat, type TableFormat } from './table.format';

/** Each row as [value, raw record]. */
class Pairs implements TableRowCollector<string[][]> {
  private rows: string[][] = [];

  add(value: Buffer, vStart: number, vEnd: number, line: Buffer, lStart: number, lEnd: number) {
    this.rows.push([value.toString('utf8', vStart, vEnd), line.toString('utf8', lStart, lEnd)]);
  }

  take(): string[][] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }
}

async function collect(
  source: Readable,
  chunkRows: number,
  fromRow = 0,
  format: TableFormat = tableFormat('email', undefined),
): Promise<RowChunk<string[][]>[]> {
  const out: RowChunk<string[][]>[] = [];
  for await (const chunk of readTableChunksInto(source, chunkRows, fromRow, format, new Pairs())) {
    out.push(chunk);
  }
  return out;
}

const fromString = (text: string): Readable => Readable.from([Buffer.from(text, 'utf8')]);
const oneByOne = (text: string): Readable =>
  Readable.from([...Buffer.from(text, 'utf8')].map((b) => Buffer.from([b])));

const FILE = 'name,email\nAnn,a@x.io\n\n"B, b",b@x.io\r\n"C\nc", c@x.io \nD,\n';

describe('readTableChunksInto', () => {
  it('numbers chunks with 0-based first rows, the header left out, whatever the chunking', async () => {
    const chunks = await collect(fromString(FILE), 2);
    assert.deepEqual(chunks, [
      {
        chunkNo: 0,
        firstRow: 0,
        rows: [
          ['a@x.io', 'Ann,a@x.io'],
          ['b@x.io', '"B, b",b@x.io'],
        ],
      },
      {
        chunkNo: 1,
        firstRow: 2,
        rows: [
          ['c@x.io', '"C\nc", c@x.io '],
          ['', 'D,'],
        ],
      },
    ]);
    assert.deepEqual(await collect(oneByOne(FILE), 2), chunks);
    assert.deepEqual(await collect(oneByOne(FILE), 3), [
      { chunkNo: 0, firstRow: 0, rows: chunks[0].rows.concat(chunks[1].rows.slice(0, 1)) },
      { chunkNo: 1, firstRow: 3, rows: chunks[1].rows.slice(1) },
    ]);
  });

  it('resumes at a chunk boundary with the numbering of a read from the start', async () => {
    const whole = await collect(fromString(FILE), 1);
    assert.equal(whole.length, 4);
    assert.deepEqual(await collect(fromString(FILE), 1, 2), whole.slice(2));
    assert.deepEqual(await collect(fromString(FILE), 2, 4), []);
    await assert.rejects(collect(fromString(FILE), 2, 1), RangeError);
    await assert.rejects(collect(fromString(FILE), 0), RangeError);
  });

  it('yields nothing for a file without rows', async () => {
    assert.deepEqual(await collect(fromString('name,email\n\n'), 10), []);
    assert.deepEqual(await collect(fromString(''), 10), []);
  });

  it('throws the reader’s 422 for a file that breaks the rules', async () => {
    await assert.rejects(
      collect(fromString('name,email\na,b\nc\n'), 10),
      (err: unknown) =>
        err instanceof VerityError &&
        err.code === 'unprocessable' &&
        err.message === 'line 3 has 1 cell; the first line has 2',
    );
  });

  it('rethrows an error of the source stream', async () => {
    const source = new PassThrough();
    source.write('email\na\nb\n');
    setImmediate(() => source.destroy(new Error('blob store connection reset')));
    await assert.rejects(collect(source, 1), /blob store connection reset/);
  });

  it('destroys the source when the consumer stops early', async () => {
    const source = new PassThrough();
    source.write('email,n\na,1\nb,2\n');
    const format = tableFormat('email', undefined);
    for await (const chunk of readTableChunksInto(source, 1, 0, format, new Pairs())) {
      assert.deepEqual(chunk.rows, [['a', 'a,1']]);
      break;
    }
    assert.equal(source.destroyed, true);
  });
});
