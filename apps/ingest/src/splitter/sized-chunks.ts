import type { RowChunk } from '@verity/batch';

/** Rows a chunk can be cut in: a string array, or JsonRows (@verity/batch). */
export interface SliceableRows<R> {
  readonly length: number;
  slice(from?: number, to?: number): R;
}

/** A chunk and its encoded message. */
export interface EncodedChunk<R> {
  chunk: RowChunk<R>;
  value: Buffer;
}

/** How a chunk becomes its message: the bytes, and their length without writing them. */
export interface ChunkCodec<R> {
  encode(chunk: RowChunk<R>): Buffer;
  /** `encode(chunk).length`, cheaply: the cuts are decided on it, so only pieces are written. */
  size(chunk: RowChunk<R>): number;
}

/**
 * Re-cuts chunks so no message exceeds `maxBytes` (Kafka refuses messages above its
 * max.message.bytes, 1 MB by default, and 10,000 rows of 4 KiB lines would be 40 MB): a chunk
 * whose message is too large is halved until each piece fits, and only the pieces are
 * encoded (writing the whole and every half on the way cost a copy of the chunk per halving,
 * 140 MB for 10,000 rows of 2 KB). Chunks are renumbered 0, 1, 2, … in order, so the
 * numbering still depends only on the file and a re-split re-emits identical chunks. A resumed
 * split passes the number its first chunk had in the interrupted run (`firstChunkNo`).
 */
export async function* sizedChunks<R extends SliceableRows<R>>(
  chunks: AsyncIterable<RowChunk<R>>,
  maxBytes: number,
  codec: ChunkCodec<R>,
  firstChunkNo = 0,
): AsyncGenerator<EncodedChunk<R>, void, undefined> {
  let chunkNo = firstChunkNo;
  for await (const chunk of chunks) {
    // Number tentatively: a chunk that fits (nearly always) keeps this number.
    const whole = { chunkNo, firstRow: chunk.firstRow, rows: chunk.rows };
    for (const piece of cut(whole, maxBytes, codec)) {
      chunkNo++;
      yield { chunk: piece, value: codec.encode(piece) };
    }
  }
}

function* cut<R extends SliceableRows<R>>(
  chunk: RowChunk<R>,
  maxBytes: number,
  codec: ChunkCodec<R>,
): Generator<RowChunk<R>> {
  if (chunk.rows.length <= 1 || codec.size(chunk) <= maxBytes) {
    yield chunk;
    return;
  }
  const half = Math.ceil(chunk.rows.length / 2);
  const first = {
    chunkNo: chunk.chunkNo,
    firstRow: chunk.firstRow,
    rows: chunk.rows.slice(0, half),
  };
  const firstPieces = [...cut(first, maxBytes, codec)];
  yield* firstPieces;
  // The second half is numbered after however many pieces the first half became.
  const second = {
    chunkNo: chunk.chunkNo + firstPieces.length,
    firstRow: chunk.firstRow + half,
    rows: chunk.rows.slice(half),
  };
  yield* cut(second, maxBytes, codec);
}
