import { Transform, type Readable, type TransformCallback } from 'node:stream';

/** A batch input reader (InputReader, TableReader) as the streams below drive it. */
export interface ByteReader {
  /** Reads one chunk; throws a VerityError at the first violation. */
  write(chunk: Buffer): void;
  /** Finishes the upload's file: zero rows is a 422. */
  end(): number;
  /** Finishes the split's file: zero rows is no error. */
  finish(): number;
  readonly rows: number;
  readonly totalBytes: number;
}

/**
 * Pass-through stream for `upload → inspector → blob store`: bytes go through unchanged while
 * `reader` checks them. On a violation the stream errors with the reader's VerityError (413
 * payload_too_large or 422 unprocessable); `rows` is final after 'finish'.
 */
export class ReaderTransform<Reader extends ByteReader> extends Transform {
  constructor(protected readonly reader: Reader) {
    super();
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

/**
 * Feeds `readable` to `reader` and yields the chunks its row listener put in `ready` (emptied
 * after each read), up to and including those of the file's end; the caller yields the last,
 * partial chunk. Errors of `readable` are rethrown as they are; a consumer that stops early
 * (break, error) destroys the source.
 */
export async function* feedReader<T>(
  readable: Readable,
  reader: ByteReader,
  ready: T[],
): AsyncGenerator<T, void, undefined> {
  try {
    // One stream layer: the source's buffers go straight to the reader.
    for await (const data of readable as AsyncIterable<Buffer | string>) {
      reader.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      for (const chunk of ready) yield chunk;
      ready.length = 0;
    }
    reader.finish();
  } finally {
    if (!readable.readableEnded) readable.destroy();
  }
  for (const chunk of ready) yield chunk;
  ready.length = 0;
}

/** A split's chunk size and resume row: a positive chunk size, and a resume row on a chunk boundary. */
export function checkChunkBounds(chunkRows: number, fromRow: number): void {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) {
    throw new RangeError(`chunkRows must be a positive integer, got ${chunkRows}`);
  }
  if (!Number.isInteger(fromRow) || fromRow < 0 || fromRow % chunkRows !== 0) {
    throw new RangeError(`fromRow must be a multiple of chunkRows, got ${fromRow}`);
  }
}
