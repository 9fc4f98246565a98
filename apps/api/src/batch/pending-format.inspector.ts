import { Transform, type TransformCallback } from 'node:stream';
import { InputReader, fileTooLarge, type UploadLimits } from '@verity/batch';
import { VerityError } from '@verity/common';

/**
 * The upload inspector for a file whose format is not known yet: `column` may come after the
 * file part (docs/batch.md, "Multi-column files"). Bytes pass through unchanged while the file
 * is checked as the spec's single-column file, like UploadInspector; but a file that breaks
 * that grammar (422) is stored anyway and its error kept in `refusal`: if no `column` follows,
 * the upload answers with it; if one does, the stored file is read again in its format. The
 * byte limit (413) holds for every format and still cuts the upload at once.
 */
export class PendingFormatInspector extends Transform {
  private reader: InputReader | null;
  private bytes = 0;
  private rowCount = 0;
  /** The single-column grammar's refusal, once the file broke it. */
  refusal: VerityError | null = null;

  constructor(private readonly limits: UploadLimits) {
    super();
    this.reader = new InputReader(limits);
  }

  /** The file's rows as a single-column file, once the stream finished without `refusal`. */
  get rows(): number {
    return this.rowCount;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    const reader = this.reader;
    // While it reads, the reader enforces the byte limit itself (the same 413).
    const failure =
      reader !== null
        ? this.check(() => reader.write(chunk))
        : this.bytes > this.limits.maxBytes
          ? fileTooLarge(this.limits.maxBytes)
          : null;
    if (failure) callback(failure);
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const reader = this.reader;
    callback(reader === null ? null : this.check(() => (this.rowCount = reader.end())));
  }

  /** Runs `step` on the reader: a 422 is kept and ends the checking, anything else is returned. */
  private check(step: () => unknown): Error | null {
    try {
      step();
      return null;
    } catch (error) {
      if (!(error instanceof VerityError) || error.code !== 'unprocessable') return error as Error;
      this.refusal = error;
      this.reader = null;
      return null;
    }
  }
}
