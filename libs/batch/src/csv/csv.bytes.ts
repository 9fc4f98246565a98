import { isAscii } from 'node:buffer';

// The bytes the batch input grammar gives a meaning to (input.reader.ts), and the classes of
// bytes its whole-row fast paths rely on.

export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const TAB = 0x09;
export const QUOTE = 0x22;
export const COMMA = 0x2c;

// Bytes a row's value can be made of on the whole-row fast path: printable ASCII other than
// space, `"` and `,`. Anything else (padding, quotes, control or non-ASCII bytes) sends the row
// through the state machine, which is the definition; the fast path only skips its steps for
// the rows where they change nothing.
export const PLAIN = new Uint8Array(256);
for (let b = 0x21; b < 0x7f; b++) PLAIN[b] = b === QUOTE || b === COMMA ? 0 : 1;

/**
 * True when `bytes` holds no byte the grammar gives a meaning to other than LF: nothing
 * non-ASCII, no CR, space, tab, `"` or `,`. Each of its lines is then one value, byte for byte,
 * and an empty line is no row. Native scans (simdutf, memchr): a few ms per 100 MB.
 */
export function onlyPlainLines(bytes: Buffer): boolean {
  return (
    isAscii(bytes) &&
    bytes.indexOf(COMMA) < 0 &&
    bytes.indexOf(QUOTE) < 0 &&
    bytes.indexOf(SPACE) < 0 &&
    bytes.indexOf(TAB) < 0 &&
    bytes.indexOf(CR) < 0
  );
}
