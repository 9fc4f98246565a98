// The UTF-8 byte order mark; dropped when it opens the file (and only then).
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Matches the BOM over the first three bytes of a file, whichever chunks they arrive in. Until
 * it is settled, every chunk goes through `take` first.
 */
export class LeadingBom {
  private matched = 0;
  private done = false;

  /** True once the file's first bytes are known to be a BOM or not. */
  get settled(): boolean {
    return this.done;
  }

  /** True at the end of a file that is only the start of a BOM (a truncated UTF-8 sequence). */
  get truncated(): boolean {
    return !this.done && this.matched > 0;
  }

  /**
   * The index in `chunk` where ordinary content starts, and the bytes matched in earlier steps
   * that turned out not to be a BOM (0xEF or 0xEF 0xBB, file offsets 0…): content to read first.
   */
  take(chunk: Uint8Array): { from: number; replay: Buffer | null } {
    let i = 0;
    while (i < chunk.length && this.matched < 3) {
      if (chunk[i] !== BOM[this.matched]) {
        this.done = true;
        return {
          from: i,
          replay: this.matched > 0 ? Buffer.from(BOM.slice(0, this.matched)) : null,
        };
      }
      this.matched++;
      i++;
    }
    if (this.matched === 3) this.done = true;
    return { from: i, replay: null };
  }
}
