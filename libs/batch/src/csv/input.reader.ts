import { DEFAULT_MAX_LINE_BYTES, type UploadLimits } from './csv.grammar';
import { COMMA, CR, LF, onlyPlainLines, PLAIN, QUOTE, SPACE, TAB } from './csv.bytes';
import { isHeaderName } from './header.names';
import { LeadingBom } from './leading-bom';
import {
  afterQuoteError,
  columnsError,
  fileTooLarge,
  innerBomError,
  lineTooLong,
  noRowsError,
  tooManyRows,
  unclosedQuoteError,
  utf8Error,
} from './input.errors';

// The one reader of the batch input format, used at upload (to accept or refuse the file) and
// by the splitter (to cut it into chunks). A byte-level state machine that validates UTF-8 and
// the single-column CSV grammar in one pass, with O(1) state whatever the file size. It never
// decodes text: every structural character of the grammar is ASCII, and in UTF-8 no byte of a
// multi-byte character is below 0x80 (RFC 3629 §3), so a non-ASCII byte is always plain
// content. Values are handed out as byte ranges, mostly of the caller's own buffer.

// CSV states of the current physical line.
const LEAD = 0; // only spaces/tabs so far
const UNQUOTED = 1; // inside an unquoted value
const QUOTED = 2; // inside "..."
const QUOTE_SEEN = 3; // a quote inside "...": either the closing one or the first of ""
const AFTER_QUOTED = 4; // after the closing quote: only spaces/tabs may follow

/**
 * Called for each row, in order, with its value: bytes `start` … `end` of `bytes` (UTF-8, quotes
 * removed, `""` unescaped, padding trimmed; never empty). `bytes` is the buffer given to
 * `write` or the reader's own; it is only valid during the call.
 */
export type RowListener = (bytes: Buffer, start: number, end: number) => void;

/**
 * Reads a batch input file incrementally: feed bytes with `write`, then call `end`. Throws a
 * VerityError at the first problem: 413 payload_too_large or 422 unprocessable. Without a
 * listener it only validates and counts (the upload path). A first value that is a column name
 * (header.names.ts) is a header: no row, not counted, not handed out.
 */
export class InputReader {
  private readonly maxRows: number;
  private readonly maxBytes: number;
  private readonly maxLineBytes: number;
  private bytes = 0;
  private rowCount = 0;
  private line = 1;
  private lineBytes = 0;
  private state = LEAD;
  private hasContent = false;
  private prevCR = false;
  private readonly leadingBom = new LeadingBom();
  // UTF-8 decoder state: continuation bytes still needed and the accepted range of the next one.
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private seqStart = 0;
  private bomBytes = 0; // 1 or 2 when the current sequence so far is EF or EF BB
  // Value extraction, only when a listener is given. A value is a range of the chunk being
  // read (start … end, -1 while none) until it crosses a chunk or holds an escaped quote; then
  // it is copied to `value` (bounded by maxLineBytes) and continues there ("spilled").
  // Values are also extracted without a listener until the first one, to recognise a header.
  private readonly value: Buffer;
  private collecting: boolean;
  private firstValue = true;
  private headerSkipped = false;
  private valueLen = 0;
  private trimmedLen = 0;
  private spilled = false;

  constructor(
    limits: UploadLimits,
    private readonly onRow?: RowListener,
  ) {
    this.maxRows = limits.maxRows;
    this.maxBytes = limits.maxBytes;
    this.maxLineBytes = limits.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.value = Buffer.alloc(this.maxLineBytes);
    this.collecting = true;
  }

  /** Rows counted so far (final after `end`). */
  get rows(): number {
    return this.rowCount;
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.bytes;
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

  // `base` is the file offset of chunk[0], for error messages.
  private scan(chunk: Buffer, from: number, base: number): void {
    let i = from;
    const n = chunk.length;
    // Hot loop: state lives in locals and is written back once per chunk.
    let state = this.state;
    let need = this.need;
    let lo = this.lo;
    let hi = this.hi;
    let lineBytes = this.lineBytes;
    let hasContent = this.hasContent;
    let prevCR = this.prevCR;
    const maxLine = this.maxLineBytes;
    const collect = this.collecting;
    const plainLines = onlyPlainLines(from === 0 ? chunk : chunk.subarray(from));
    // An unquoted value not spilled: chunk[start] is its first byte, chunk[end - 1] its last
    // one that is not padding.
    let start = -1;
    let end = -1;
    try {
      for (; i < n; i++) {
        if (state === LEAD && lineBytes === 0 && need === 0 && !prevCR && !this.spilled) {
          // At the start of a line: take whole rows at once while they are plain.
          i = this.plainRows(chunk, i, plainLines);
          if (i === n) break;
        }
        let b = chunk[i];
        if (state === UNQUOTED && need === 0) {
          // Fast path for the bulk of a file: plain ASCII inside an unquoted value needs no
          // state change beyond the line length (hasContent is already true in this state).
          const run = i;
          while (b < 0x80 && b !== COMMA && b !== LF && b !== CR) {
            if (++i === n) break;
            b = chunk[i];
          }
          if (i > run) {
            prevCR = false;
            lineBytes += i - run;
            if (lineBytes > maxLine) throw lineTooLong(this.line, maxLine);
            if (collect) end = this.extend(chunk, run, i, end);
            if (i === n) break;
          }
        }
        if (need > 0) {
          if (b < lo || b > hi) throw utf8Error(this.seqStart);
          if (this.bomBytes !== 0) this.checkInnerBom(b);
          need--;
          lo = 0x80;
          hi = 0xbf;
        } else if (b >= 0x80) {
          // Lead byte ranges and second-byte ranges per Unicode §3.9 Table 3-7 (no overlongs,
          // no surrogates, nothing above U+10FFFF).
          this.seqStart = base + i;
          if (b >= 0xc2 && b <= 0xdf) {
            need = 1;
          } else if (b >= 0xe0 && b <= 0xef) {
            need = 2;
            if (b === 0xef) this.bomBytes = 1;
            else if (b === 0xe0) lo = 0xa0;
            else if (b === 0xed) hi = 0x9f;
          } else if (b >= 0xf0 && b <= 0xf4) {
            need = 3;
            if (b === 0xf0) lo = 0x90;
            else if (b === 0xf4) hi = 0x8f;
          } else {
            throw utf8Error(base + i);
          }
        }
        if (b === LF || b === CR) {
          if (b === LF && prevCR) {
            prevCR = false;
            continue;
          }
          prevCR = b === CR;
          this.state = state;
          this.hasContent = hasContent;
          this.endLine(chunk, start, end);
          state = LEAD;
          hasContent = false;
          lineBytes = 0;
          start = -1;
          continue;
        }
        prevCR = false;
        if (++lineBytes > maxLine) throw lineTooLong(this.line, maxLine);
        if (state === UNQUOTED) {
          if (b === COMMA) throw columnsError(this.line);
          if (collect) end = this.extend(chunk, i, i + 1, end);
        } else if (state === QUOTED) {
          if (b === QUOTE) {
            state = QUOTE_SEEN;
          } else {
            if (b !== SPACE && b !== TAB) hasContent = true;
            if (collect) this.push(b);
          }
        } else if (state === LEAD) {
          if (b === SPACE || b === TAB) continue;
          if (b === COMMA) throw columnsError(this.line);
          if (b === QUOTE) {
            state = QUOTED;
            // Quoted values are rare and may hold "": they are always copied.
            this.spilled = collect;
          } else {
            state = UNQUOTED;
            hasContent = true;
            start = i;
            end = i + 1;
          }
        } else if (state === QUOTE_SEEN) {
          if (b === QUOTE) {
            state = QUOTED; // "" is an escaped quote (RFC 4180 §2.7)
            hasContent = true;
            if (collect) this.push(b);
          } else if (b === SPACE || b === TAB) {
            state = AFTER_QUOTED;
          } else if (b === COMMA) {
            throw columnsError(this.line);
          } else {
            throw afterQuoteError(this.line);
          }
        } else {
          if (b === COMMA) throw columnsError(this.line);
          if (b !== SPACE && b !== TAB) throw afterQuoteError(this.line);
        }
      }
      // An unquoted value that goes on in the next chunk is copied before `chunk` is let go.
      if (collect && state === UNQUOTED && !this.spilled) this.spill(chunk, start, end, n);
    } finally {
      this.state = state;
      this.need = need;
      this.lo = lo;
      this.hi = hi;
      this.lineBytes = lineBytes;
      this.hasContent = hasContent;
      this.prevCR = prevCR;
    }
  }

  /**
   * Counts (and hands out) the rows from `from` on that the state machine would take from LEAD
   * back to LEAD with nothing to do but end the line: a run of PLAIN bytes ended by LF or CRLF,
   * or, in a chunk of only plain lines (`plainLines`), any line, found with a native search
   * (an empty one is no row). Each is at most maxLineBytes long and ends within the chunk.
   * Returns where the first line that is not such a row begins (or the chunk's end), for the
   * state machine to read.
   */
  private plainRows(chunk: Buffer, from: number, plainLines: boolean): number {
    const n = chunk.length;
    const maxLine = this.maxLineBytes;
    const onRow = this.onRow;
    let i = from;
    while (i < n) {
      let j: number;
      let next: number;
      if (plainLines) {
        j = chunk.indexOf(LF, i);
        if (j < 0) return i;
        next = j + 1;
        if (j === i) {
          this.line++;
          i = next;
          continue;
        }
      } else {
        j = i;
        while (j < n && PLAIN[chunk[j]] === 1) j++;
        if (j === i || j === n) return i;
        if (chunk[j] === LF) next = j + 1;
        else if (chunk[j] === CR && j + 1 < n && chunk[j + 1] === LF) next = j + 2;
        else return i;
      }
      if (j - i > maxLine) return i;
      if (this.firstValue && this.isHeader(chunk, i, j)) {
        this.line++;
        i = next;
        continue;
      }
      if (++this.rowCount > this.maxRows) {
        throw tooManyRows(this.maxRows);
      }
      if (onRow) onRow(chunk, i, j);
      this.line++;
      i = next;
    }
    return i;
  }

  // Adds chunk[from … to) to the current unquoted value; returns the new end of its range.
  private extend(chunk: Buffer, from: number, to: number, end: number): number {
    if (this.spilled) {
      for (let k = from; k < to; k++) this.push(chunk[k]);
      return end;
    }
    let k = to;
    while (k > from && (chunk[k - 1] === SPACE || chunk[k - 1] === TAB)) k--;
    return k > from ? k : end;
  }

  private spill(chunk: Buffer, start: number, end: number, n: number): void {
    const value = this.value;
    chunk.copy(value, 0, start, n);
    this.valueLen = n - start;
    this.trimmedLen = end - start;
    this.spilled = true;
  }

  /** True once a header line has been read (and skipped). */
  get hasHeader(): boolean {
    return this.headerSkipped;
  }

  /** Finishes the file: a last line without newline counts; zero rows → 422. */
  end(): number {
    this.finish();
    if (this.rowCount === 0) throw noRowsError(this.headerSkipped);
    return this.rowCount;
  }

  // Decides on the file's first value; true when it is a header. Without a listener, values
  // are no longer extracted from then on.
  private isHeader(bytes: Buffer, start: number, end: number): boolean {
    this.firstValue = false;
    this.collecting = this.onRow !== undefined;
    this.headerSkipped = isHeaderName(bytes, start, end);
    return this.headerSkipped;
  }

  /** Finishes the file like `end`, but a file without rows is not an error (the split). */
  finish(): number {
    if (this.need > 0 || this.leadingBom.truncated) {
      // A truncated sequence at the end, or a file that is only the start of a BOM.
      throw utf8Error(this.seqStart);
    }
    this.endLine(null, -1, -1);
    return this.rowCount;
  }

  // U+FEFF after the start of the file is refused: it is invisible, has no place in an email,
  // phone or IP, and a reader that drops it (as fast-csv does when it opens a read chunk)
  // would not see the same value on every run.
  private checkInnerBom(b: number): void {
    if (this.bomBytes === 1 && b === 0xbb) {
      this.bomBytes = 2;
      return;
    }
    const third = this.bomBytes === 2 && b === 0xbf;
    this.bomBytes = 0;
    if (third) throw innerBomError(this.line);
  }

  private push(b: number): void {
    const value = this.value;
    // Leading padding is skipped and trailing padding trimmed at the end of the line.
    if (this.valueLen === 0 && (b === SPACE || b === TAB)) return;
    value[this.valueLen++] = b;
    if (b !== SPACE && b !== TAB) this.trimmedLen = this.valueLen;
  }

  // Ends a physical line; an unspilled value is chunk[start … end).
  private endLine(chunk: Buffer | null, start: number, end: number): void {
    if (this.state === QUOTED) throw unclosedQuoteError(this.line);
    if (this.hasContent) this.takeValue(chunk, start, end);
    this.spilled = false;
    this.valueLen = 0;
    this.trimmedLen = 0;
    this.hasContent = false;
    this.state = LEAD;
    this.lineBytes = 0;
    this.line++;
  }

  // The value of a line that has one: a row, or the header.
  private takeValue(chunk: Buffer | null, start: number, end: number): void {
    const own = this.spilled || chunk === null;
    const bytes = own ? this.value : chunk;
    const from = own ? 0 : start;
    const to = own ? this.trimmedLen : end;
    if (this.firstValue && this.isHeader(bytes, from, to)) return;
    this.rowCount++;
    if (this.rowCount > this.maxRows) {
      throw tooManyRows(this.maxRows);
    }
    if (this.onRow) this.onRow(bytes, from, to);
  }
}
