// The one grammar of a batch input file, shared by the upload inspector (byte scanner) and the
// splitter's row reader (fast-csv). docs/batch.md "Input file" states the same rules in prose.

/** Longest accepted physical line, in bytes (an email is at most 254 octets, RFC 5321 §4.5.3.1). */
export const DEFAULT_MAX_LINE_BYTES = 4096;

/** Limits an upload is checked against (BATCH_MAX_ROWS, BATCH_MAX_BYTES from config). */
export interface UploadLimits {
  /** More rows than this → 422 unprocessable. */
  maxRows: number;
  /** More bytes than this → 413 payload_too_large. */
  maxBytes: number;
  /** A physical line longer than this (terminator excluded) → 422; defaults to 4096. */
  maxLineBytes?: number;
}

/**
 * Trims the padding the grammar ignores: ASCII spaces and tabs only. Other Unicode spaces
 * (NBSP, ideographic space) are kept, so that the byte scanner and the reader agree without
 * the scanner having to decode characters.
 */
export function trimCell(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isPad(value.charCodeAt(start))) start++;
  while (end > start && isPad(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isPad(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
