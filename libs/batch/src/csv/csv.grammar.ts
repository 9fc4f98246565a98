// Limits of a batch input file. The grammar itself has one definition, the reader
// (input.reader.ts), used at upload and at split; docs/batch.md "Input file" states it in prose.

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
