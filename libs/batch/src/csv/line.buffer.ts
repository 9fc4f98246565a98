/**
 * Bytes of each piece. Well under V8's large-object size (about 128 KiB), and under glibc's
 * default mmap threshold, so a piece comes from the allocator's heap instead of its own mapping.
 */
const PIECE_BYTES = 64 * 1024;

/** UTF-8 takes at most three bytes per UTF-16 code unit (a surrogate pair: four for two). */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Collects text lines as UTF-8 bytes, piece by piece, and hands them over as one Buffer. It
 * replaces `lines.join('')` followed by `Buffer.from`: that string is a large object (a
 * 10,000-row chunk's result is about 850 KB), which V8 maps and unmaps on its own pages once
 * per chunk (docs/benchmarks.md, "Batch engine"). The bytes here live outside the JavaScript heap.
 */
export class LineBuffer {
  private readonly pieces: Buffer[] = [];
  private piece: Buffer = Buffer.allocUnsafe(PIECE_BYTES);
  private used = 0;
  private total = 0;

  /** Appends `line` (its own line ending included) as UTF-8. */
  push(line: string): void {
    const worst = line.length * MAX_UTF8_PER_UNIT;
    if (this.used + worst > this.piece.length) {
      this.seal();
      this.piece = Buffer.allocUnsafe(Math.max(PIECE_BYTES, worst));
    }
    this.used += this.piece.write(line, this.used, 'utf8');
  }

  /** Everything pushed, in order. The buffer is not usable afterwards. */
  toBuffer(): Buffer {
    this.seal();
    return this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.total);
  }

  private seal(): void {
    if (this.used === 0) return;
    this.pieces.push(this.piece.subarray(0, this.used));
    this.total += this.used;
    this.used = 0;
  }
}
