import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { VerityError } from '@verity/common';
import { readChunks, readChunksInto, type RowChunk, type RowCollector } from './chunk.reader';
import { tableFormat, type TableFormat } from './table.format';

async function collect(source: Readable, chunkRows: number, fromRow = 0): Promise<RowChunk[]> {
  const out: RowChunk[] = [];
  for await (const chunk of readChunks(source, chunkRows, fromRow)) out.push(chunk);
  return out;
}

/** Each row as [value, raw record]. */
class Pairs implements RowCollector<string[][]> {
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

async function collectPairs(
  source: Readable,
  chunkRows: number,
  fromRow = 0,
  format: TableFormat = tableFormat('email', undefined),
): Promise<RowChunk<string[][]>[]> {
  const out: RowChunk<string[][]>[] = [];
  for await (const chunk of readChunksInto(source, chunkRows, fromRow, format, new Pairs())) {
    out.push(chunk);
  }
  return out;
}

const fromString = (text: string): Readable => Readable.from([Buffer.from(text, 'utf8')]);
const oneByOne = (text: string): Readable =>
  Readable.from([...Buffer.from(text, 'utf8')].map((b) => Buffer.from([b])));

const TABLE = 'name,email\nAnn,a@x.io\n\n"B, b",b@x.io\r\n"C\nc", c@x.io \nD,\n';

describe('readChunks (the single-column file)', () => {
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
    assert.deepEqual(await collect(oneByOne(text), 2), whole);
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
    await assert.rejects(collect(fromString(text), 0), RangeError);
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
});

describe('readChunksInto a multi-column file', () => {
  it('numbers chunks with 0-based first rows, the header left out, whatever the chunking', async () => {
    const chunks = await collectPairs(fromString(TABLE), 2);
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
    assert.deepEqual(await collectPairs(oneByOne(TABLE), 2), chunks);
    assert.deepEqual(await collectPairs(oneByOne(TABLE), 3), [
      { chunkNo: 0, firstRow: 0, rows: chunks[0].rows.concat(chunks[1].rows.slice(0, 1)) },
      { chunkNo: 1, firstRow: 3, rows: chunks[1].rows.slice(1) },
    ]);
    const whole = await collectPairs(fromString(TABLE), 1);
    assert.deepEqual(await collectPairs(fromString(TABLE), 1, 2), whole.slice(2));
  });

  it('yields nothing for a file without rows', async () => {
    assert.deepEqual(await collectPairs(fromString('name,email\n\n'), 10), []);
    assert.deepEqual(await collectPairs(fromString(''), 10), []);
  });

  it('throws the reader’s 422 for a file that breaks the rules', async () => {
    await assert.rejects(
      collectPairs(fromString('name,email\na,b\nc\n'), 10),
      (err: unknown) =>
        err instanceof VerityError &&
        err.code === 'unprocessable' &&
        err.message === 'line 3 has 1 cell; the first line has 2',
    );
  });
});
