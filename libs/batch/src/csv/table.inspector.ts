import { Transform, type TransformCallback } from 'node:stream';
import type { UploadLimits } from './csv.grammar';
import type { TableFormat } from './table.format';
import { TableReader, type TableRowListener } from './table.reader';

/**
 * Pass-through stream for `upload → inspector → blob store` of a multi-column file: bytes go
 * through unchanged while TableReader checks them. On a violation the stream errors with a
 * VerityError (413 payload_too_large or 422 unprocessable); `rows` is final after 'finish'.
 */
export class TableInspector extends Transform {
  private readonly reader: TableReader;

  constructor(limits: UploadLimits, format: TableFormat, onRow?: TableRowListener) {
    super();
    this.reader = new TableReader(limits, format, onRow);
  }

  /** Rows counted so far; the file's row count once the stream has finished. */
  get rows(): number {
    return this.reader.rows;
  }

  /** Bytes passed through so far. */
  get bytes(): number {
    return this.reader.totalBytes;
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

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.reader.write(chunk);
    } catch (err) {
      callback(err as Error);
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.reader.end();
    } catch (err) {
      callback(err as Error);
      return;
    }
    callback();
  }
}
