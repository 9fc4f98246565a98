import { QUOTE } from './csv.bytes';

/**
 * The bytes of a record that crosses the chunks given to a reader, copied as they go by, and
 * room to unescape a quoted value. Grows as needed up to `max` bytes.
 */
export class RecordBuffer {
  bytes: Buffer = Buffer.alloc(0);
  length = 0;
  private unescaped: Buffer = Buffer.alloc(0);

  constructor(private readonly max: number) {}

  /** Adds chunk[from … to); the record is at most `max` bytes in all. */
  append(chunk: Buffer, from: number, to: number): void {
    const needed = this.length + (to - from);
    if (needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(this.max, Math.max(needed, 2 * this.bytes.length, 1024)),
      );
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    chunk.copy(this.bytes, this.length, from, to);
    this.length = needed;
  }

  /**
   * Quoted content raw[from … to) with each "" made one ", as a buffer valid until the next call
   * (bytes 0 … the returned length).
   */
  unescape(raw: Buffer, from: number, to: number): [Buffer, number] {
    if (this.unescaped.length < to - from) this.unescaped = Buffer.allocUnsafe(to - from);
    const out = this.unescaped;
    let n = 0;
    for (let j = from; j < to; j++) {
      out[n++] = raw[j];
      if (raw[j] === QUOTE) j++;
    }
    return [out, n];
  }
}
