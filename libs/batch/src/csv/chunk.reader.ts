import { Readable } from 'node:stream';
import { parse } from 'fast-csv';
import { VerityError } from '@verity/common';
import { trimCell } from './csv.grammar';

/** A run of consecutive rows of a batch input file. */
export interface RowChunk {
  /** 0, 1, 2, ... in file order; the same file always gives the same numbering. */
  chunkNo: number;
  /** 0-based index of `rows[0]` among all rows of the file (blank lines not counted). */
  firstRow: number;
  rows: string[];
}

/**
 * Reads an input file that passed the upload inspector and yields its rows in chunks of
 * `chunkRows` (the last chunk may be shorter). Same grammar as the inspector: BOM dropped,
 * blank lines skipped, values unquoted and trimmed of spaces/tabs. A row with more than one
 * column (a file that skipped the inspector) throws 422 unprocessable; errors of `readable`
 * are rethrown as they are. The source is consumed: stopping early destroys it.
 *
 * `fromRow` (a multiple of `chunkRows`) resumes a split: the rows before it are parsed but
 * not yielded, and chunks keep the numbering and boundaries of a read from the start.
 */
export async function* readChunks(
  readable: Readable,
  chunkRows: number,
  fromRow = 0,
): AsyncGenerator<RowChunk, void, undefined> {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) {
    throw new RangeError(`chunkRows must be a positive integer, got ${chunkRows}`);
  }
  if (!Number.isInteger(fromRow) || fromRow < 0 || fromRow % chunkRows !== 0) {
    throw new RangeError(`fromRow must be a multiple of chunkRows, got ${fromRow}`);
  }
  // fast-csv drops a leading BOM, accepts LF, CRLF and CR, and unescapes "" inside quotes.
  // ignoreEmpty is left off: blankness is decided below with the grammar's own trim, so that
  // `""` and whitespace-only lines are skipped exactly as the inspector skips them.
  const parser = parse<string[], string[]>({ headers: false, ignoreEmpty: false });
  // pipe() does not forward source errors; destroying the parser makes the loop throw them.
  readable.once('error', (err) => parser.destroy(err));
  readable.pipe(parser);

  let chunkNo = fromRow / chunkRows;
  let firstRow = fromRow;
  let skip = fromRow;
  let rows: string[] = [];
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line++;
      if (record.length > 1) {
        throw new VerityError('unprocessable', `row ${line} has more than one column`);
      }
      const value = trimCell(record[0] ?? '');
      if (value === '') continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      rows.push(value);
      if (rows.length === chunkRows) {
        yield { chunkNo, firstRow, rows };
        chunkNo++;
        firstRow += rows.length;
        rows = [];
      }
    }
  } finally {
    // A consumer that stops early (break, error) must not leave the source open.
    readable.unpipe(parser);
    parser.destroy();
    if (!readable.readableEnded) readable.destroy();
  }
  if (rows.length > 0) yield { chunkNo, firstRow, rows };
}
