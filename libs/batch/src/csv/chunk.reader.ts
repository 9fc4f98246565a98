import type { Readable } from 'node:stream';
import { SINGLE_COLUMN, type TableFormat } from './table.format';
import { TableReader, type TableRowListener } from './table.reader';

/** A run of consecutive rows of a batch input file. */
export interface RowChunk<R = string[]> {
  /** 0, 1, 2, ... in file order; the same file always gives the same numbering. */
  chunkNo: number;
  /** 0-based index of the chunk's first row among all rows of the file (blank lines not counted). */
  firstRow: number;
  rows: R;
}

/**
 * Gathers the rows the reader hands out (see TableRowListener: the chosen cell, and the record
 * as in the file, both valid only during the call) into the rows of one chunk, in whatever
 * form the consumer needs: strings, or bytes ready for a message.
 */
export interface RowCollector<R> {
  add: TableRowListener;
  /** The rows added since the last call. */
  take(): R;
}

// The file passed these at upload; only the line or record length (the format's default)
// bounds the reader's memory here.
const SPLIT_LIMITS = { maxRows: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

/**
 * Reads an input file with the upload's reader and yields its rows' values in chunks of
 * `chunkRows` (the last chunk may be shorter), as strings; see readChunksInto.
 */
export function readChunks(
  readable: Readable,
  chunkRows: number,
  fromRow = 0,
  format: TableFormat = SINGLE_COLUMN,
): AsyncGenerator<RowChunk, void, undefined> {
  return readChunksInto(readable, chunkRows, fromRow, format, new StringRows());
}

/**
 * Reads an input file with the upload's reader (TableReader with the format the upload
 * resolved: the same grammar, the same errors) and yields its rows in chunks of `chunkRows`
 * (the last chunk may be shorter), in the form `collector` builds. A file that breaks the
 * upload rules (one that skipped the upload) throws the upload's VerityError; errors of
 * `readable` are rethrown as they are. The source is consumed: stopping early destroys it.
 *
 * `fromRow` (a multiple of `chunkRows`) resumes a split: the rows before it are read but not
 * collected, and chunks keep the numbering and boundaries of a read from the start.
 */
export async function* readChunksInto<R>(
  readable: Readable,
  chunkRows: number,
  fromRow: number,
  format: TableFormat,
  collector: RowCollector<R>,
): AsyncGenerator<RowChunk<R>, void, undefined> {
  checkChunkBounds(chunkRows, fromRow);
  const ready: RowChunk<R>[] = [];
  let chunkNo = fromRow / chunkRows;
  let firstRow = fromRow;
  let skip = fromRow;
  let rows = 0;
  const reader = new TableReader(
    SPLIT_LIMITS,
    format,
    (value, vStart, vEnd, line, lStart, lEnd) => {
      if (skip > 0) {
        skip--;
        return;
      }
      collector.add(value, vStart, vEnd, line, lStart, lEnd);
      if (++rows === chunkRows) {
        ready.push({ chunkNo: chunkNo++, firstRow, rows: collector.take() });
        firstRow += rows;
        rows = 0;
      }
    },
  );
  try {
    // One stream layer: the source's buffers go straight to the reader.
    for await (const data of readable as AsyncIterable<Buffer | string>) {
      reader.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      for (const chunk of ready) yield chunk;
      ready.length = 0;
    }
    reader.finish();
  } finally {
    if (!readable.readableEnded) readable.destroy();
  }
  for (const chunk of ready) yield chunk;
  if (rows > 0) yield { chunkNo, firstRow, rows: collector.take() };
}

/** A split's chunk size and resume row: a positive chunk size, and a resume row on a chunk boundary. */
function checkChunkBounds(chunkRows: number, fromRow: number): void {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) {
    throw new RangeError(`chunkRows must be a positive integer, got ${chunkRows}`);
  }
  if (!Number.isInteger(fromRow) || fromRow < 0 || fromRow % chunkRows !== 0) {
    throw new RangeError(`fromRow must be a multiple of chunkRows, got ${fromRow}`);
  }
}

class StringRows implements RowCollector<string[]> {
  private rows: string[] = [];

  add(value: Buffer, start: number, end: number): void {
    this.rows.push(value.toString('utf8', start, end));
  }

  take(): string[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }
}
