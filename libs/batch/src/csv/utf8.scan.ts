import { isUtf8 } from 'node:buffer';

// UTF-8 validation of a file read in chunks, apart from its grammar: whole runs go through the
// native validator (simdutf); only the bytes around a chunk's edges, and a chunk that fails,
// are walked byte by byte. A BOM (U+FEFF) is reported too: after the file's first bytes it is
// refused: it is invisible, has no place in an email, phone or IP, and a reader that drops it
// (as fast-csv does when it opens a read chunk) would not see the same value on every run.

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The problem found in a chunk. */
export type Utf8Problem = 'invalid' | 'bom';

export class Utf8Scan {
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private bomBytes = 0; // 1 or 2 when the current sequence so far is EF or EF BB
  /** File offset of the sequence being read, or of the bad byte once `problem` is 'invalid'. */
  offset = 0;
  problem: Utf8Problem | null = null;

  /** True when the file stops inside a sequence (a truncated character at the end). */
  get pending(): boolean {
    return this.need > 0;
  }

  /**
   * Checks `chunk` from `from` on (`base` is the file offset of chunk[0]). Returns the index of
   * the byte at which the first problem is known (then `problem` and `offset` say which), or -1.
   */
  check(chunk: Buffer, from: number, base: number): number {
    const n = chunk.length;
    let i = from;
    while (this.need > 0 && i < n) {
      if (!this.step(chunk[i], base + i)) return i;
      i++;
    }
    if (i === n) return -1;
    // The chunk may end inside a sequence: find where its last one starts.
    let tail = n;
    for (let k = n - 1; k >= i && k >= n - 3; k--) {
      const b = chunk[k];
      if (b < 0x80) break;
      if (b >= 0xc0) {
        const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (k + len > n) tail = k;
        break;
      }
    }
    if (isUtf8(chunk.subarray(i, tail))) {
      const bom = chunk.indexOf(BOM, i);
      if (bom >= 0 && bom < tail) {
        this.problem = 'bom';
        return bom + 2;
      }
      i = tail;
    }
    for (; i < n; i++) if (!this.step(chunk[i], base + i)) return i;
    return -1;
  }

  // One byte of the decoder (Unicode §3.9 Table 3-7: no overlongs, no surrogates, nothing above
  // U+10FFFF); false at a problem.
  private step(b: number, offset: number): boolean {
    if (this.need > 0) {
      if (b < this.lo || b > this.hi) {
        this.problem = 'invalid';
        return false;
      }
      if (this.bomBytes !== 0) {
        if (this.bomBytes === 1 && b === 0xbb) {
          this.bomBytes = 2;
        } else {
          const third = this.bomBytes === 2 && b === 0xbf;
          this.bomBytes = 0;
          if (third) {
            this.problem = 'bom';
            return false;
          }
        }
      }
      this.need--;
      this.lo = 0x80;
      this.hi = 0xbf;
      return true;
    }
    if (b < 0x80) return true;
    this.offset = offset;
    if (b >= 0xc2 && b <= 0xdf) {
      this.need = 1;
    } else if (b >= 0xe0 && b <= 0xef) {
      this.need = 2;
      if (b === 0xef) this.bomBytes = 1;
      else if (b === 0xe0) this.lo = 0xa0;
      else if (b === 0xed) this.hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      this.need = 3;
      if (b === 0xf0) this.lo = 0x90;
      else if (b === 0xf4) this.hi = 0x8f;
    } else {
      this.problem = 'invalid';
      return false;
    }
    return true;
  }
}
