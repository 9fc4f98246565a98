// Limits of a batch input file. The grammar itself has one definition, the reader
// (table.reader.ts), used at upload and at split; docs/batch.md "Input file" and "Multi-column
// files" state it in prose.

/**
 * Longest physical line of a single-column file, in bytes (an email is at most 254 octets,
 * RFC 5321 §4.5.3.1).
 */
export const DEFAULT_MAX_LINE_BYTES = 4096;

/** Longest record of a multi-column file, in bytes (terminator excluded). */
export const DEFAULT_MAX_RECORD_BYTES = 65536;

/** Limits an upload is checked against (BATCH_MAX_ROWS, BATCH_MAX_BYTES from config). */
export interface UploadLimits {
  /** More rows than this → 422 unprocessable. */
  maxRows: number;
  /** More bytes than this → 413 payload_too_large. */
  maxBytes: number;
  /**
   * A longer line of a single-column file, or record of a multi-column one (terminator
   * excluded) → 422; defaults to DEFAULT_MAX_LINE_BYTES or DEFAULT_MAX_RECORD_BYTES.
   */
  maxLineBytes?: number;
}
