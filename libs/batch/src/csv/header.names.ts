import { BATCH_HEADER_NAMES } from '@verity/contracts';

// Column names a batch input file may open with. A first line that is one of them (compared
// case-insensitively, after the reader has removed quotes and padding) is a header: it is no
// row, is not charged and is not in the result. None of them is a valid email, phone number or
// IP address, so a first line that is a valid value is always a row.

/** The header names, lowercase (BATCH_HEADER_NAMES of every type). */
export const HEADER_NAMES: ReadonlySet<string> = new Set(Object.values(BATCH_HEADER_NAMES).flat());

const LONGEST = Math.max(...[...HEADER_NAMES].map((name) => name.length));

/** True when bytes `start` … `end` of `bytes` are one of the HEADER_NAMES, in any case. */
export function isHeaderName(bytes: Buffer, start: number, end: number): boolean {
  if (end - start > LONGEST) return false;
  return HEADER_NAMES.has(bytes.toString('latin1', start, end).toLowerCase());
}
