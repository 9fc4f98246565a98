import type { RowCollector } from '../csv/chunk.reader';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/** The byte after the backslash of a two-byte escape (JSON.stringify's), or 0: `\u00xx`. */
const SHORT_ESCAPES = new Uint8Array(0x60);
SHORT_ESCAPES[QUOTE] = QUOTE;
SHORT_ESCAPES[BACKSLASH] = BACKSLASH;
SHORT_ESCAPES[0x08] = 0x62; // \b
SHORT_ESCAPES[0x09] = 0x74; // \t
SHORT_ESCAPES[0x0a] = 0x6e; // \n
SHORT_ESCAPES[0x0c] = 0x66; // \f
SHORT_ESCAPES[0x0d] = 0x72; // \r
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Bytes kept free before and after a chunk's rows, for its message's head and tail. */
const HEAD_ROOM = 256;
const TAIL_ROOM = 8;
/** The largest buffer a collector starts its next chunk with. */
const NEXT_BUFFER_MAX = 1 << 20;

/**
 * The rows of a chunk as the elements of a JSON array of strings, without the brackets, byte
 * for byte as JSON.stringify writes them; `starts` holds where each row begins, so a chunk can
 * be halved without re-encoding.
 */
export class JsonRows {
  constructor(
    readonly json: Buffer,
    private readonly starts: readonly number[],
    /** Free bytes the collector left before and after `json` in its buffer (none in a slice). */
    private readonly room: { before: number; after: number } = { before: 0, after: 0 },
  ) {}

  get length(): number {
    return this.starts.length;
  }

  /**
   * `head`, the rows, `tail` as one buffer. Rows straight from the collector have room around
   * them in a buffer of their own: head and tail are written there and nothing is copied. The
   * framing is written once; a second call (or a slice, whose neighbours share the buffer) copies.
   */
  framed(head: Buffer, tail: Buffer): Buffer {
    const { before, after } = this.room;
    if (head.length > before || tail.length > after) return Buffer.concat([head, this.json, tail]);
    this.room.before = this.room.after = 0;
    const whole = Buffer.from(
      this.json.buffer,
      this.json.byteOffset - head.length,
      head.length + this.json.length + tail.length,
    );
    head.copy(whole, 0);
    tail.copy(whole, head.length + this.json.length);
    return whole;
  }

  /** Rows `from` … `to` (exclusive), like Array.prototype.slice with non-negative bounds. */
  slice(from = 0, to = this.length): JsonRows {
    const end = Math.min(to, this.length);
    if (from >= end) return new JsonRows(Buffer.alloc(0), []);
    const base = this.starts[from];
    // A row is followed by a comma unless it is the last one.
    const stop = end < this.length ? this.starts[end] - 1 : this.json.length;
    return new JsonRows(
      this.json.subarray(base, stop),
      this.starts.slice(from, end).map((s) => s - base),
    );
  }
}

/**
 * Encodes values straight from the reader's bytes: a value without `"`, `\` or a control
 * character (nearly all of them) is its own JSON string body, copied between two quotes; in any
 * other value those bytes are escaped as JSON.stringify escapes them. The input is valid UTF-8
 * (the reader checked), and JSON.stringify escapes nothing else in it, so the bytes are the
 * ones it writes.
 */
abstract class JsonStrings {
  // Rows are written from HEAD_ROOM on; `len` is where the next byte goes.
  private buf = Buffer.allocUnsafe(1 << 18);
  private len = HEAD_ROOM;
  protected starts: number[] = [];

  /**
   * The rows added since the last call; they keep this buffer, and the next rows get a new one,
   * as large as this one up to NEXT_BUFFER_MAX: a chunk of emails (~310 KB) never grows one,
   * and a chunk of wide rows (up to 40 MB) does not leave another buffer of its size behind.
   */
  take(): JsonRows {
    const buf = this.buf;
    const end = this.len;
    const rows = new JsonRows(buf.subarray(HEAD_ROOM, end), this.starts, {
      before: HEAD_ROOM,
      after: buf.length - end,
    });
    this.buf = Buffer.allocUnsafe(Math.min(buf.length, NEXT_BUFFER_MAX));
    this.len = HEAD_ROOM;
    this.starts = [];
    return rows;
  }

  /**
   * Appends the JSON string of bytes `start` … `end`, after a comma when `comma`; returns where
   * the string begins, counted from the first row.
   */
  protected append(bytes: Buffer, start: number, end: number, comma: boolean): number {
    // Worst case of the copy: quotes and a comma around the value, and the message's tail.
    this.reserve(end - start + 3 + TAIL_ROOM);
    const buf = this.buf;
    let pos = this.len;
    if (comma) buf[pos++] = COMMA;
    const at = pos;
    buf[pos++] = QUOTE;
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b < 0x20 || b === QUOTE || b === BACKSLASH) {
        this.len = pos;
        this.appendEscaped(bytes, i, end);
        return at - HEAD_ROOM;
      }
      buf[pos++] = b;
    }
    buf[pos++] = QUOTE;
    this.len = pos;
    return at - HEAD_ROOM;
  }

  /**
   * The rest of a string from byte `from` on, escaped as JSON.stringify escapes it: `"` and `\`
   * with a backslash, the control characters with their short form or `\u00xx` (lowercase hex),
   * every other byte as it is, then the closing quote. Written where the copy stopped.
   */
  private appendEscaped(bytes: Buffer, from: number, end: number): void {
    // Worst case: `\u00xx` (6 bytes) per byte, the closing quote, the message's tail.
    this.reserve((end - from) * 6 + 1 + TAIL_ROOM);
    const buf = this.buf;
    let pos = this.len;
    for (let i = from; i < end; i++) {
      const b = bytes[i];
      if (b >= 0x20 && b !== QUOTE && b !== BACKSLASH) {
        buf[pos++] = b;
        continue;
      }
      buf[pos++] = BACKSLASH;
      const short = SHORT_ESCAPES[b];
      if (short !== 0) {
        buf[pos++] = short;
        continue;
      }
      buf[pos++] = 0x75; // u
      buf[pos++] = 0x30;
      buf[pos++] = 0x30;
      buf[pos++] = HEX[b >> 4];
      buf[pos++] = HEX[b & 15];
    }
    buf[pos++] = QUOTE;
    this.len = pos;
  }

  private reserve(bytes: number): void {
    if (this.len + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + bytes));
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }
}

/** A chunk's rows, one JSON string per value (a single-column file). */
export class JsonRowsCollector extends JsonStrings implements RowCollector<JsonRows> {
  add(bytes: Buffer, start: number, end: number): void {
    this.starts.push(this.append(bytes, start, end, this.starts.length > 0));
  }
}

/**
 * A multi-column file's rows as pairs of JSON strings: the validated value, then the record's
 * raw line (a chunk message with `"layout":"lines"`). A row is the pair, so halving a chunk
 * never separates a value from its line.
 */
export class JsonPairsCollector extends JsonStrings implements RowCollector<JsonRows> {
  add(
    value: Buffer,
    vStart: number,
    vEnd: number,
    line: Buffer,
    lStart: number,
    lEnd: number,
  ): void {
    const at = this.append(value, vStart, vEnd, this.starts.length > 0);
    this.append(line, lStart, lEnd, true);
    this.starts.push(at);
  }
}
