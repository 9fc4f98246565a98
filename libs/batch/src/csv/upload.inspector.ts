import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import type { UploadLimits } from './csv.grammar';
import { InputReader, type RowListener } from './input.reader';

/**
 * Pass-through stream for `upload → inspector → blob store`: bytes go through unchanged while
 * the file is checked (UTF-8, one column, limits). On a violation the stream errors with a
 * VerityError (413 payload_too_large or 422 unprocessable); `rows` is final after 'finish'.
 */
export class UploadInspector extends Transform {
  private readonly reader: InputReader;

  constructor(limits: UploadLimits, onRow?: RowListener) {
    super();
    this.reader = new InputReader(limits, onRow);
  }

  /** Rows counted so far; the file's row count once the stream has finished. */
  get rows(): number {
    return this.reader.rows;
  }

  /** Bytes passed through so far. */
  get bytes(): number {
    return this.reader.totalBytes;
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

/** Result of a standalone inspection. */
export interface InspectionResult {
  rows: number;
  bytes: number;
}

/**
 * Checks a whole upload without storing it (bytes are discarded); rejects with the same
 * VerityError the inspector stream would raise.
 */
export async function inspectUpload(
  source: Readable,
  limits: UploadLimits,
  onRow?: RowListener,
): Promise<InspectionResult> {
  const inspector = new UploadInspector(limits, onRow);
  const sink = new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });
  await pipeline(source, inspector, sink);
  return { rows: inspector.rows, bytes: inspector.bytes };
}
