import { Transform, type TransformCallback } from 'node:stream';
import { VerityError } from '@verity/common';
import type { UploadLimits } from './csv.grammar';
import { fileTooLarge } from './input.errors';
import type { TableFormat, TableInput } from './table.format';
import { TableReader, type TableRowListener } from './table.reader';

// The upload's inspector: the one reader as a pass-through stream between the request's file
// part and the blob store, for every format (and again for the re-read after a late `column`).

/** How the inspector treats a file its reader refuses. */
export interface InspectorOptions {
  /**
   * Keep a 422 in `refusal` instead of failing the stream, and pass the rest of the bytes on
   * unchecked but for the byte limit (413 still cuts the stream): the upload of a file whose
   * `column` may still come after it (docs/batch.md, "Fields in any order").
   */
  holdRefusal?: boolean;
  onRow?: TableRowListener;
}

/**
 * Pass-through stream for `upload → inspector → blob store`: bytes go through unchanged while
 * TableReader checks them in `format`. On a violation the stream errors with the reader's
 * VerityError (413 payload_too_large or 422 unprocessable); `rows`, `input` and `refusal` are
 * final after 'finish'.
 */
export class TableInspector extends Transform {
  private readonly reader: TableReader;
  private seen = 0;
  /** The reader's 422, held back (holdRefusal) once the file broke the format's rules. */
  refusal: VerityError | null = null;

  constructor(
    private readonly limits: UploadLimits,
    private readonly format: TableFormat,
    private readonly options: InspectorOptions = {},
  ) {
    super();
    this.reader = new TableReader(limits, format, options.onRow);
  }

  /** Rows counted so far; the file's row count once the stream has finished. */
  get rows(): number {
    return this.reader.rows;
  }

  /** Bytes passed through so far. */
  get bytes(): number {
    return this.seen;
  }

  /** The header record as in the file, or null (known once the first record has been read). */
  get header(): string | null {
    return this.reader.header;
  }

  /** 0-based index of the chosen column; -1 until the first record has been read. */
  get columnIndex(): number {
    return this.reader.columnIndex;
  }

  /** Cells per record; -1 until the first record has been read. */
  get width(): number {
    return this.reader.width;
  }

  /** What a multi-column file's job stores of its format; null for the single-column file. */
  get input(): TableInput | null {
    if (this.format.singleColumn) return null;
    return { column: this.columnIndex, header: this.header, width: this.width };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    // While it reads, the reader enforces the byte limit itself (the same 413).
    const failure =
      this.refusal === null
        ? this.check(() => this.reader.write(chunk))
        : this.seen > this.limits.maxBytes
          ? fileTooLarge(this.limits.maxBytes)
          : null;
    if (failure) callback(failure);
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.refusal === null ? this.check(() => this.reader.end()) : null);
  }

  /** Runs `step` on the reader: its error, unless it is a 422 to hold back. */
  private check(step: () => unknown): Error | null {
    try {
      step();
      return null;
    } catch (error) {
      const hold =
        this.options.holdRefusal === true &&
        error instanceof VerityError &&
        error.code === 'unprocessable';
      if (!hold) return error as Error;
      this.refusal = error;
      return null;
    }
  }
}
