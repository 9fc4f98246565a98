import type { Readable } from 'node:stream';
import { checkChunkBounds, feedReader } from './reader.stream';
import { DEFAULT_MAX_LINE_BYTES } from './csv.grammar';
import { InputReader } from './input.reader';

/** A run of consecutive rows of a batch input file. */
export interface RowChunk<R = string[]> {
  /** 0, 1, 2, ... in file order; the same file always gives the same numbering. */
  chunkNo: number;
  /** 0-based index of the chunk's first row among all rows of the file (blank lines not counted). */
  firstRow: number;
  rows: R;
}

/**
 * Gathers the values the reader hands out (see RowListener) into the rows of one chunk, in
 * whatever form the consumer needs: strings, or bytes ready for a message.
 */
export interface RowCollector<R> {
  /** Adds one value: bytes `start` … `end` of `bytes`, valid only during the call. */
  add(bytes: Buffer, start: number, end: number): void;
  /** The rows added since the last call. */
  take(): R;
}

// The file passed these at upload; only the line length bounds the reader's memory here.
const SPLIT_LIMITS = {
  maxRows: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
};

/**
 * Reads an input file with the upload's reader (InputReader: the same grammar, the same errors)
 * and yields its rows in chunks of `chunkRows` (the last chunk may be shorter), as strings.
 */
export function readChunks(
  readable: Readable,
  chunkRows: number,
  fromRow = 0,
): AsyncGenerator<RowChunk, void, undefined> {
  return readChunksInto(readable, chunkRows, fromRow, new StringRows());
}

/**
 * Like `readChunks`, with rows in the form `collector` builds. A file that breaks the upload
 * rules (one that skipped the upload) throws the upload's VerityError; errors of `readable`
 * are rethrown as they are. The source is consumed: stopping early destroys it.
 *
 * `fromRow` (a multiple of `chunkRows`) resumes a split: the rows before it are read but not
 * collected, and chunks keep the numbering and boundaries of a read from the start.
 */
export async function* readChunksInto<R>(
  readable: Readable,
  chunkRows: number,
  fromRow: number,
  collector: RowCollector<R>,
): AsyncGenerator<RowChunk<R>, void, undefined> {
  checkChunkBounds(chunkRows, fromRow);
  const ready: RowChunk<R>[] = [];
  let chunkNo = fromRow / chunkRows;
  let firstRow = fromRow;
  let skip = fromRow;
  let rows = 0;
  const reader = new InputReader(SPLIT_LIMITS, (bytes, start, end) => {
    if (skip > 0) {
      skip--;
      return;
    }
    collector.add(bytes, start, end);
    if (++rows === chunkRows) {
      ready.push({ chunkNo: chunkNo++, firstRow, rows: collector.take() });
      firstRow += rows;
      rows = 0;
    }
  });
  yield* feedReader(readable, reader, ready);
  if (rows > 0) yield { chunkNo, firstRow, rows: collector.take() };
}

class StringRows implements RowCollector<string[]> {
  private rows: string[] = [];

  add(bytes: Buffer, start: number, end: number): void {
    this.rows.push(bytes.toString('utf8', start, end));
  }

  take(): string[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }
}
