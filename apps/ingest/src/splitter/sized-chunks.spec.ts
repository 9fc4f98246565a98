import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  encodeChunk,
  encodedChunkLength,
  encodeMessage,
  JsonRowsCollector,
  readChunks,
  readChunksInto,
  SINGLE_COLUMN,
  type RowChunk,
} from '@verity/batch';
import { sizedChunks } from './sized-chunks';

const JOB = '6f1c2b8e-0d7a-4b5e-9f00-1a2b3c4d5e6f';

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function source(chunks: RowChunk[]): AsyncIterable<RowChunk> {
  return (async function* () {
    for (const chunk of chunks) yield await Promise.resolve(chunk);
  })();
}

const encode = (c: RowChunk): Buffer => Buffer.from(JSON.stringify(c), 'utf8');

/** Encodes with `encode`, counting how many messages were written. */
function counting(write: (c: RowChunk) => Buffer) {
  const counted = {
    encodings: 0,
    encode: (c: RowChunk) => {
      counted.encodings++;
      return write(c);
    },
    size: (c: RowChunk) => write(c).length,
  };
  return counted;
}

async function run(chunks: RowChunk[], maxBytes: number) {
  const codec = counting(encode);
  const out = [];
  for await (const piece of sizedChunks(source(chunks), maxBytes, codec)) out.push(piece);
  return { out, encodings: codec.encodings };
}

describe('sizedChunks', () => {
  it('encodes a chunk that fits once and keeps its number', async () => {
    const chunks = [
      { chunkNo: 0, firstRow: 0, rows: ['a@x.io', 'b@x.io'] },
      { chunkNo: 1, firstRow: 2, rows: ['c@x.io'] },
    ];
    const { out, encodings } = await run(chunks, 1024);
    assert.equal(encodings, 2);
    assert.deepEqual(
      out.map((p) => p.chunk),
      chunks,
    );
    assert.deepEqual(out[0].value, encode(chunks[0]));
  });

  it('halves oversize chunks until each message fits, renumbering in file order', async () => {
    const long = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(100)}`;
    const rows = Array.from({ length: 10 }, (_, i) => long(i));
    const { out, encodings } = await run(
      [
        { chunkNo: 0, firstRow: 0, rows },
        { chunkNo: 1, firstRow: 10, rows: ['tail'] },
      ],
      300,
    );
    // Only the pieces are written, never the chunk or a half that was cut again.
    assert.equal(encodings, out.length);
    for (const p of out) {
      assert.ok(p.value.length <= 300 || p.chunk.rows.length === 1);
      assert.deepEqual(p.value, encode(p.chunk));
    }
    assert.deepEqual(
      out.map((p) => p.chunk.chunkNo),
      out.map((_, i) => i),
    );
    assert.deepEqual(
      out.flatMap((p) => p.chunk.rows),
      [...rows, 'tail'],
    );
    // firstRow is each piece's offset in the file.
    let next = 0;
    for (const p of out) {
      assert.equal(p.chunk.firstRow, next);
      next += p.chunk.rows.length;
    }
    assert.ok(out.length > 3);
  });

  it('halves a chunk into the messages of the halved string rows', async () => {
    const rows = Array.from(
      { length: 9 },
      (_, i) => `${i}${i % 3 === 0 ? '"' : ''}${'x'.repeat(40)}`,
    );
    const text = rows.map((r) => (r.includes('"') ? `"${r.replace(/"/g, '""')}"` : r)).join('\n');
    const encode = (c: RowChunk) => encodeMessage({ v: 1, jobId: JOB, type: 'email', ...c });
    const strings = await all(
      sizedChunks(readChunks(Readable.from([Buffer.from(text)]), 9), 200, counting(encode)),
    );
    const json = await all(
      sizedChunks(
        readChunksInto(
          Readable.from([Buffer.from(text)]),
          9,
          0,
          SINGLE_COLUMN,
          new JsonRowsCollector(),
        ),
        200,
        {
          encode: (c) => encodeChunk(JOB, 'email', c),
          size: (c) => encodedChunkLength(JOB, 'email', c),
        },
      ),
    );
    assert.ok(strings.length > 2);
    assert.deepEqual(
      json.map((p) => p.value),
      strings.map((p) => p.value),
    );
  });
});
