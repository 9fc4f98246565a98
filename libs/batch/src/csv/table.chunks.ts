import type { Readable } from 'node:stream';
import { checkChunkBounds, feedReader } from './reader.stream';
import type { RowChunk } from './chunk.reader';
import { DEFAULT_MAX_RECORD_BYTES, type TableFormat } from './table.format';
import { TableReader, type TableRowListener } from './table.reader';

/**
 * Gathers the rows TableReader hands out (see TableRowListener) into the rows of one chunk:
 * the chosen cell `value` bytes vStart … vEnd and the record `line` bytes lStart … lEnd, both
 * valid only during the call.
 */
export interface TableRowCollector<R> {
  add: TableRowListener;
  /** The rows added since the last call. */
  take(): R;
}

// The file passed these at upload; only the record length bounds the reader's memory here.
const SPLIT_LIMITS = {
  maxRows: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  maxLineBytes: DEFAULT_MAX_RECORD_BYTES,
};

/**
 * Reads a multi-column input file with the upload's reader (TableReader with the same format)
 * and yields its rows in chunks of `chunkRows` (the last chunk may be shorter), in the form
 * `collector` builds. The contract of readChunksInto: a file that breaks the upload rules
 * throws the upload's VerityError, errors of `readable` are rethrown as they are, stopping
 * early destroys the source, and `fromRow` (a multiple of `chunkRows`) resumes a split with the
 * numbering and boundaries of a read from the start.
 */
export async function* readTableChunksInto<R>(
  readable: Readable,
  chunkRows: number,
  fromRow: number,
  format: TableFormat,
  collector: TableRowCollector<R>,
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
  yield* feedReader(readable, reader, ready);
  if (rows > 0) yield { chunkNo, firstRow, rows: collector.take() };
}
