import { Transform, type TransformCallback } from 'node:stream';
import type { VerdictFilter } from './result.verdicts';

const LF = 0x0a;
const QUOTE = 0x22;

/**
 * The rows of a result file that `filter` keeps, in file order, after its header (the first
 * record, always kept): a stream of the file's bytes in, the kept records' bytes out, each as
 * it was written. Records end at a line feed outside quotes (a multi-column file's input cells
 * may hold line breaks); a record is held only until its end arrives.
 */
export function filterResultRows(filter: VerdictFilter): Transform {
  let carry: Buffer = Buffer.alloc(0);
  let header = true;
  // Whether the scan of `carry` so far is inside a quoted cell, and how far it got.
  let quoted = false;
  let scanned = 0;
  const take = (record: Buffer, out: Buffer[]): void => {
    if (header) {
      header = false;
      out.push(record);
    } else if (filter.keeps(record.toString('utf8'))) out.push(record);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const buf = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      const out: Buffer[] = [];
      let start = 0;
      let i = scanned;
      // The next quote at or after i (-1: none left), looked up again only once passed.
      let quote = buf.indexOf(QUOTE, i);
      while (i < buf.length) {
        const lf = buf.indexOf(LF, i);
        if (quote >= 0 && quote < i) quote = buf.indexOf(QUOTE, i);
        if (quote >= 0 && (lf < 0 || quote < lf)) {
          quoted = !quoted;
          i = quote + 1;
          continue;
        }
        if (lf < 0) break;
        i = lf + 1;
        if (quoted) continue;
        take(buf.subarray(start, i), out);
        start = i;
      }
      carry = buf.subarray(start);
      scanned = buf.length - start;
      done(null, out.length === 0 ? undefined : Buffer.concat(out));
    },
    flush(done: TransformCallback) {
      const out: Buffer[] = [];
      if (carry.length > 0) take(carry, out);
      done(null, out.length === 0 ? undefined : Buffer.concat(out));
    },
  });
}
