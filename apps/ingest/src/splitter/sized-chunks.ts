import type { RowChunk } from '@verity/batch';

/**
 * Re-cuts chunks so no message exceeds `maxBytes` of row text (Kafka refuses messages above
 * its max.message.bytes, 1 MB by default, and 1,000 rows of 4 KiB lines would be 4 MB):
 * a chunk too large is halved until it fits. Chunks are renumbered 0, 1, 2, … in order, so
 * the numbering still depends only on the file and a re-split re-emits identical chunks.
 */
export async function* sizedChunks(
  chunks: AsyncIterable<RowChunk>,
  maxBytes: number,
): AsyncGenerator<RowChunk, void, undefined> {
  let chunkNo = 0;
  for await (const chunk of chunks) {
    for (const piece of cut(chunk.firstRow, chunk.rows, maxBytes)) {
      yield { chunkNo: chunkNo++, firstRow: piece.firstRow, rows: piece.rows };
    }
  }
}

function* cut(
  firstRow: number,
  rows: string[],
  maxBytes: number,
): Generator<{ firstRow: number; rows: string[] }> {
  if (rows.length <= 1 || bytesOf(rows) <= maxBytes) {
    yield { firstRow, rows };
    return;
  }
  const half = Math.ceil(rows.length / 2);
  yield* cut(firstRow, rows.slice(0, half), maxBytes);
  yield* cut(firstRow + half, rows.slice(half), maxBytes);
}

/** Size of the rows as they travel (a JSON array: escapes can make a row several times longer). */
function bytesOf(rows: string[]): number {
  return Buffer.byteLength(JSON.stringify(rows), 'utf8');
}
