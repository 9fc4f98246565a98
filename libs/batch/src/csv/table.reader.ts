import { isAscii } from 'node:buffer';
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_RECORD_BYTES, type UploadLimits } from './csv.grammar';
import { COMMA, CR, LF, onlyPlainLines, QUOTE, SPACE, TAB } from './csv.bytes';
import { LeadingBom } from './leading-bom';
import { RecordBuffer } from './record.buffer';
import {
  afterQuoteError,
  chooseColumnError,
  columnsError,
  fileTooLarge,
  innerBomError,
  lineTooLong,
  noRowsError,
  recordTooLong,
  tooManyRows,
  unclosedFieldError,
  unclosedQuoteError,
  utf8Error,
  widthError,
} from './input.errors';
import type { TableFormat } from './table.format';
import { readFirstRecord, recordCells } from './table.header';
import { Utf8Scan } from './utf8.scan';

// The one reader of batch input files, at upload (to accept or refuse the file) and at split (to
// cut it into chunks): RFC 4180, leniently. Fields separated by commas, records ended by LF,
// CRLF or a lone CR, quoted fields that may hold commas, `""` and line breaks, spaces and tabs
// around a field ignored. The single-column file (format.singleColumn) is its one-column case
// with stricter rules (table.format.ts). UTF-8 is checked apart (Utf8Scan); the grammar is
// walked byte by byte only for records that need it: a record of plain bytes ended by LF or
// CRLF is taken whole by a tight loop, and a chunk of only plain lines in a one-column file by
// a native search for its line ends. It never decodes text: every structural character is
// ASCII, and in UTF-8 no byte of a multi-byte character is below 0x80 (RFC 3629 §3).

// States of the record being read.
const BOUNDARY = 0; // between records
const LEAD = 1; // only spaces/tabs so far in the current field
const UNQUOTED = 2; // inside an unquoted field
const QUOTED = 3; // inside "..."
const QUOTE_SEEN = 4; // a quote inside "...": either the closing one or the first of ""
const AFTER_QUOTED = 5; // after the closing quote: only spaces/tabs may follow

// Whether the chunk being read is ASCII and holds only plain lines (onlyPlainLines), found out
// when needed.
const PLAIN_UNKNOWN = -1;
const PLAIN_NO = 0;
const PLAIN_YES = 1;

const isPadding = (b: number): boolean => b === SPACE || b === TAB;

/**
 * Called for each row, in order: `value` bytes vStart … vEnd are the chosen cell (UTF-8,
 * unquoted, `""` unescaped, padding trimmed; possibly empty in a multi-column file) and `line`
 * bytes lStart … lEnd the record exactly as in the file (terminator excluded). Both are the
 * buffer given to `write` or the reader's own, valid only during the call.
 */
export type TableRowListener = (
  value: Buffer,
  vStart: number,
  vEnd: number,
  line: Buffer,
  lStart: number,
  lEnd: number,
) => void;

/**
 * Reads a batch file incrementally: `write` the bytes, then `end`. Throws a VerityError at the
 * first problem (413 payload_too_large, 422 unprocessable naming the line). Every record has
 * the first record's number of cells; wholly empty lines are skipped. A header record is no
 * row. Without a listener it only validates and counts (the upload). Memory: O(longest record).
 */
export class TableReader {
  private readonly maxRows: number;
  private readonly maxBytes: number;
  private readonly maxRecord: number;
  private readonly single: boolean;
  private bytes = 0;
  private rowCount = 0;
  private line = 1;
  private state = BOUNDARY;
  private prevCR = false;
  private plain = PLAIN_UNKNOWN;
  private readonly leadingBom = new LeadingBom();
  private readonly utf8 = new Utf8Scan();
  // Set by the first record (the column at once for a single-column file).
  private col = -1;
  private cells = -1;
  private headerText: string | null = null;
  // The record being read: it starts at chunk index `origin` (virtual once spilled: the bytes
  // before the current chunk are rec.bytes[0 … rec.length)) on line `recLine`; `cell` is the
  // index of the field being read.
  private origin = 0;
  private scanFrom = 0;
  private recLine = 1;
  private quoteLine = 1;
  private cell = 0;
  private spilled = false;
  private readonly rec: RecordBuffer;
  // The chosen cell's content in the record (offsets from its start; vs = -1 while empty) and
  // whether it holds "" to unescape.
  private inCol = false;
  private vs = -1;
  private ve = -1;
  private escaped = false;

  constructor(
    limits: UploadLimits,
    private readonly format: TableFormat,
    private readonly onRow?: TableRowListener,
  ) {
    this.maxRows = limits.maxRows;
    this.maxBytes = limits.maxBytes;
    this.single = format.singleColumn === true;
    this.maxRecord =
      limits.maxLineBytes ?? (this.single ? DEFAULT_MAX_LINE_BYTES : DEFAULT_MAX_RECORD_BYTES);
    this.rec = new RecordBuffer(this.maxRecord);
    if (this.single) this.col = 0;
  }

  /** Rows counted so far (final after `end`). */
  get rows(): number {
    return this.rowCount;
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.bytes;
  }

  /**
   * 0-based index of the chosen column; -1 until the first record has been read (0 from the
   * start for the single-column file).
   */
  get columnIndex(): number {
    return this.col;
  }

  /** Cells per record; -1 until the first record has been read. */
  get width(): number {
    return this.cells;
  }

  /** The header record as in the file (terminator and leading BOM excluded), or null. */
  get header(): string | null {
    return this.headerText;
  }

  /** True once a header record has been read. */
  get hasHeader(): boolean {
    return this.headerText !== null;
  }

  /** Reads one chunk; throws a VerityError at the first violation. */
  write(chunk: Buffer): void {
    const base = this.bytes;
    if (base + chunk.length > this.maxBytes) throw fileTooLarge(this.maxBytes);
    this.bytes = base + chunk.length;
    let from = 0;
    if (!this.leadingBom.settled) {
      const taken = this.leadingBom.take(chunk);
      if (taken.replay) this.scan(taken.replay, 0, 0);
      from = taken.from;
    }
    this.scan(chunk, from, base);
  }

  /** Finishes the file: a last record without terminator counts; zero rows → 422. */
  end(): number {
    this.finish();
    if (this.rowCount === 0) throw noRowsError(this.hasHeader);
    return this.rowCount;
  }

  /** Finishes the file like `end`, but a file without rows is not an error (the split). */
  finish(): number {
    if (this.leadingBom.truncated) throw utf8Error(0);
    if (this.utf8.pending) throw utf8Error(this.utf8.offset);
    if (this.state === QUOTED) {
      throw this.single ? unclosedQuoteError(this.line) : unclosedFieldError(this.quoteLine);
    }
    if (this.state !== BOUNDARY) this.endRecord(null, 0);
    return this.rowCount;
  }

  // `base` is the file offset of chunk[0], for error messages.
  private scan(chunk: Buffer, from: number, base: number): void {
    // ASCII is valid UTF-8 without a BOM, unless it has to finish a sequence (a native scan).
    const ascii = isAscii(from === 0 ? chunk : chunk.subarray(from));
    const bad = ascii && !this.utf8.pending ? -1 : this.utf8.check(chunk, from, base);
    this.scanFrom = from;
    this.plain = ascii ? PLAIN_UNKNOWN : PLAIN_NO;
    if (this.state !== BOUNDARY) this.origin = from - this.rec.length;
    this.parse(chunk, from, bad < 0 ? chunk.length : bad);
    if (bad >= 0) {
      throw this.utf8.problem === 'bom' ? innerBomError(this.line) : utf8Error(this.utf8.offset);
    }
    // A record that goes on in the next chunk is copied before `chunk` is let go.
    if (this.state !== BOUNDARY) {
      this.rec.append(chunk, this.spilled ? from : this.origin, chunk.length);
      this.spilled = true;
    }
  }

  private parse(chunk: Buffer, from: number, stop: number): void {
    let i = from;
    while (i < stop) {
      if (this.state === BOUNDARY) {
        if (this.cells >= 0 && !this.prevCR) {
          i = this.cells === 1 && this.plainChunk(chunk) ? this.plainLines(chunk, i) : i;
          i = this.plainRecords(chunk, i, stop);
          if (i === stop) return;
        }
        const b = chunk[i];
        if (b === LF || b === CR) {
          // An empty line, or the LF of a CRLF.
          if (b === CR || !this.prevCR) this.line++;
          this.prevCR = b === CR;
          i++;
          continue;
        }
        this.startRecord(i);
      }
      i = this.record(chunk, i, stop);
    }
  }

  // True when the chunk being read (from where this scan began) is ASCII of only plain lines.
  private plainChunk(chunk: Buffer): boolean {
    if (this.plain === PLAIN_UNKNOWN) {
      const from = this.scanFrom;
      const plain = onlyPlainLines(from === 0 ? chunk : chunk.subarray(from));
      this.plain = plain ? PLAIN_YES : PLAIN_NO;
    }
    return this.plain === PLAIN_YES;
  }

  /**
   * The one-column fast path, in a chunk of only plain lines (onlyPlainLines): each line is one
   * cell, byte for byte, and an empty line is no record, so only the line ends need finding
   * (a native search). Takes the lines from `from` on that end within the chunk and are not too
   * long; returns where the first other one begins, for the byte loops.
   */
  private plainLines(chunk: Buffer, from: number): number {
    const maxRecord = this.maxRecord;
    const onRow = this.onRow;
    let i = from;
    for (;;) {
      const lf = chunk.indexOf(LF, i);
      if (lf < 0 || lf - i > maxRecord) return i;
      if (lf > i) {
        if (++this.rowCount > this.maxRows) throw tooManyRows(this.maxRows);
        if (onRow) onRow(chunk, i, lf, chunk, i, lf);
      }
      this.line++;
      i = lf + 1;
    }
  }

  /**
   * Takes the records from `from` on that end with LF or CRLF within chunk[… stop) and hold no
   * quote but around a whole field free of "", CR and LF, counting their cells with a tight
   * loop (a single-column file: and no comma outside quotes). Returns where the first record
   * that is not such a one begins, for the state machine.
   */
  private plainRecords(chunk: Buffer, from: number, stop: number): number {
    const col = this.col;
    const width = this.cells;
    const maxRecord = this.maxRecord;
    const single = this.single;
    const onRow = this.onRow;
    let i = from;
    while (i < stop) {
      const lf = chunk.indexOf(LF, i);
      if (lf < 0 || lf >= stop) return i;
      let cell = 0;
      let cellStart = i;
      let vs = col === 0 ? i : -1;
      let ve = -1;
      let k = i;
      // Most bytes of a record sort after the comma: one comparison each.
      for (; k < lf; k++) {
        const b = chunk[k];
        if (b > COMMA) continue;
        if (b === COMMA) {
          if (single) return i;
          if (cell === col && ve < 0) ve = k;
          if (++cell === col) vs = k + 1;
          cellStart = k + 1;
        } else if (b === QUOTE) {
          // A quoted field without "", CR or LF, closed right before a comma or the record's end.
          if (k !== cellStart) return i;
          let q = k + 1;
          while (q < lf && chunk[q] !== QUOTE && chunk[q] !== CR) q++;
          if (q === lf || chunk[q] !== QUOTE) return i;
          const next = chunk[q + 1];
          if (next !== COMMA && q + 1 !== lf && !(next === CR && q + 2 === lf)) return i;
          if (cell === col) {
            vs = k + 1;
            ve = q;
          }
          k = q;
        } else if (b === CR) {
          break;
        }
      }
      // A CR other than the one of a CRLF: the state machine reads this record.
      if (k < lf - 1) return i;
      if (k - i > maxRecord) return i;
      if (k > i) {
        // A record (an empty line is none).
        if (cell + 1 !== width) throw widthError(this.line, cell + 1, width);
        if (cell === col && ve < 0) ve = k;
        while (vs < ve && isPadding(chunk[vs])) vs++;
        while (ve > vs && isPadding(chunk[ve - 1])) ve--;
        // A single-column line whose value is empty is no row.
        if (!single || ve > vs) {
          if (++this.rowCount > this.maxRows) throw tooManyRows(this.maxRows);
          if (onRow) onRow(chunk, vs, ve, chunk, i, k);
        }
      }
      this.line++;
      i = lf + 1;
    }
    return i;
  }

  private startRecord(i: number): void {
    this.origin = i;
    this.recLine = this.line;
    this.cell = 0;
    this.state = LEAD;
    this.prevCR = false;
    this.inCol = this.col === 0;
    this.vs = -1;
    this.ve = -1;
    this.escaped = false;
  }

  // Runs the state machine from `from` until the record ends (returns the index after its
  // terminator) or `stop`.
  private record(chunk: Buffer, from: number, stop: number): number {
    const origin = this.origin;
    const limit = origin + this.maxRecord; // a record byte at or past this is one too many
    const single = this.single;
    let state = this.state;
    let cr = this.prevCR;
    let i = from;
    for (; i < stop; i++) {
      const b = chunk[i];
      if (state === QUOTED) {
        if (single && (b === LF || b === CR)) throw unclosedQuoteError(this.line);
        if (i >= limit) throw this.tooLong();
        if (b === QUOTE) {
          state = QUOTE_SEEN;
          cr = false;
          continue;
        }
        // A line break inside quotes is content, and starts a physical line.
        if (b === CR || (b === LF && !cr)) this.line++;
        cr = b === CR;
        if (this.inCol && !isPadding(b)) {
          if (this.vs < 0) this.vs = i - origin;
          this.ve = i + 1 - origin;
        }
        continue;
      }
      if (b === LF || b === CR) {
        this.endRecord(chunk, i);
        this.line++;
        this.prevCR = b === CR;
        return i + 1;
      }
      if (i >= limit) throw this.tooLong();
      if (b === COMMA) {
        if (single) throw this.cells < 0 ? chooseColumnError(this.line) : columnsError(this.line);
        this.inCol = ++this.cell === this.col;
        state = LEAD;
        continue;
      }
      if (state === UNQUOTED) {
        if (this.inCol && !isPadding(b)) this.ve = i + 1 - origin;
      } else if (state === LEAD) {
        if (isPadding(b)) continue;
        if (b === QUOTE) {
          state = QUOTED;
          this.quoteLine = this.line;
          cr = false;
        } else {
          state = UNQUOTED;
          if (this.inCol) {
            this.vs = i - origin;
            this.ve = i + 1 - origin;
          }
        }
      } else if (state === QUOTE_SEEN) {
        if (b === QUOTE) {
          // "" is an escaped quote (RFC 4180 §2.7).
          state = QUOTED;
          if (this.inCol) {
            this.escaped = true;
            if (this.vs < 0) this.vs = i - 1 - origin;
            this.ve = i + 1 - origin;
          }
        } else if (isPadding(b)) {
          state = AFTER_QUOTED;
        } else {
          throw afterQuoteError(this.line);
        }
      } else if (!isPadding(b)) {
        throw afterQuoteError(this.line);
      }
    }
    this.state = state;
    this.prevCR = cr;
    return i;
  }

  // The record being read is too long (a single-column file's records are its lines).
  private tooLong(): Error {
    return this.single
      ? lineTooLong(this.line, this.maxRecord)
      : recordTooLong(this.recLine, this.maxRecord);
  }

  // Ends the record whose terminator is chunk[k] (chunk null: the end of the file).
  private endRecord(chunk: Buffer | null, k: number): void {
    let raw: Buffer;
    let start: number;
    let end: number;
    if (this.spilled) {
      if (chunk !== null) this.rec.append(chunk, this.scanFrom, k);
      raw = this.rec.bytes;
      start = 0;
      end = this.rec.length;
    } else {
      raw = chunk as Buffer;
      start = this.origin;
      end = k;
    }
    this.state = BOUNDARY;
    this.spilled = false;
    this.rec.length = 0;
    // A single-column line whose value is empty is no row, nor a header.
    if (this.single && this.vs < 0) return;
    if (this.cells < 0) {
      this.firstRecord(raw, start, end);
      return;
    }
    if (this.cell + 1 !== this.cells) throw widthError(this.recLine, this.cell + 1, this.cells);
    if (++this.rowCount > this.maxRows) throw tooManyRows(this.maxRows);
    if (!this.onRow) return;
    if (this.vs < 0) {
      this.onRow(raw, start, start, raw, start, end);
    } else if (!this.escaped) {
      this.onRow(raw, start + this.vs, start + this.ve, raw, start, end);
    } else {
      const [value, length] = this.rec.unescape(raw, start + this.vs, start + this.ve);
      this.onRow(value, 0, length, raw, start, end);
    }
  }

  private firstRecord(raw: Buffer, start: number, end: number): void {
    const text = raw.toString('utf8', start, end);
    const values = recordCells(text);
    const first = readFirstRecord(values, this.format, this.recLine);
    this.cells = values.length;
    this.col = first.column;
    if (first.header) {
      this.headerText = text;
      return;
    }
    if (++this.rowCount > this.maxRows) throw tooManyRows(this.maxRows);
    if (this.onRow) {
      const value = Buffer.from(values[first.column], 'utf8');
      this.onRow(value, 0, value.length, raw, start, end);
    }
  }
}
