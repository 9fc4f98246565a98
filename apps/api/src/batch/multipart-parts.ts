import type { IncomingMessage } from 'node:http';
import {
  Busboy,
  type BusboyConfig,
  type BusboyFileStream,
  type BusboyInstance,
} from '@fastify/busboy';
import { VerityError } from '@verity/common';

/** One part of a multipart/form-data body, in the order the client sent it. */
export type MultipartPart =
  | { type: 'field'; fieldname: string; value: string; valueTruncated: boolean }
  | { type: 'file'; fieldname: string; file: BusboyFileStream; fileName: string | undefined };

export type MultipartLimits = NonNullable<BusboyConfig['limits']>;

/** What the channel between busboy and the reader carries: a part, a failure, or the end. */
type Entry = MultipartPart | Error | null;

/**
 * The parts of `request`'s multipart body, read from the socket one at a time: a file part
 * must be read (or destroyed) before the next part arrives. A part named "file" is a file even
 * without a filename, so it is always streamed, never buffered as a field.
 *
 * Failures end the iteration with an error: a parser limit (after the part that reached it),
 * a malformed body, a request that closed early, or an error emitted on the request (the
 * body's idle timeout). The file part being read is destroyed with the same error, so a
 * pipeline reading it settles too. Leaving the loop early stops parsing.
 */
export async function* multipartParts(
  request: IncomingMessage,
  limits: MultipartLimits,
): AsyncGenerator<MultipartPart> {
  const reader = new PartReader(request, limits);
  try {
    for (let entry = await reader.next(); entry !== null; entry = await reader.next()) {
      if (entry instanceof Error) throw entry;
      yield entry;
    }
  } finally {
    reader.stop();
  }
}

/** True when the request says its body is multipart/form-data (the only upload we read). */
export function isMultipart(request: { headers: IncomingMessage['headers'] }): boolean {
  const type = request.headers['content-type'];
  return type !== undefined && /^multipart\/form-data(?:\s*;|\s*$)/i.test(type);
}

const LIMITS: Record<'partsLimit' | 'filesLimit' | 'fieldsLimit', () => VerityError> = {
  partsLimit: () =>
    new VerityError(
      'validation_error',
      'too many parts: send file, type and the optional webhook_url, column, header, fields and smtp',
    ),
  filesLimit: () => new VerityError('validation_error', 'send exactly one file'),
  fieldsLimit: () =>
    new VerityError(
      'validation_error',
      'too many fields: send type and the optional webhook_url, column, header, fields and smtp',
    ),
};

/** busboy's events turned into a queue the generator above awaits, one entry at a time. */
class PartReader {
  private readonly queue: Entry[] = [];
  private waiting: ((entry: Entry) => void) | null = null;
  private readonly parser: BusboyInstance | null;
  private file: BusboyFileStream | null = null;
  /** A failure seen while a part was still being read, delivered when iteration ends. */
  private failure: Error | null = null;
  private sawData = false;
  private ended = false;

  constructor(
    private readonly request: IncomingMessage,
    limits: MultipartLimits,
  ) {
    this.parser = this.createParser(limits);
    if (!this.parser) return;
    request.on('close', this.onRequestClose);
    request.on('error', this.onRequestError);
    request.once('data', this.onFirstData);
    this.parser
      .on('field', (fieldname, value, _nameTruncated, valueTruncated) =>
        this.push({ type: 'field', fieldname, value, valueTruncated }),
      )
      .on('file', (fieldname, file, fileName) => this.onFile(fieldname, file, fileName))
      .on('finish', () => this.end(null))
      .on('error', (error: Error) => this.onParserError(error));
    for (const [event, error] of Object.entries(LIMITS)) {
      // Raised between parts: the part just handed over is still read before the error shows.
      this.parser.on(event, () => {
        this.failure ??= error();
        process.nextTick(() => this.end(null, false));
      });
    }
    request.pipe(this.parser);
  }

  next(): Promise<Entry> {
    const entry = this.queue.shift();
    if (entry !== undefined) return Promise.resolve(entry);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The reader is done with the body (finished, failed or left early): stop parsing. */
  stop(): void {
    this.request.off('close', this.onRequestClose);
    this.request.off('error', this.onRequestError);
    this.request.off('data', this.onFirstData);
    if (this.parser) this.request.unpipe(this.parser);
    if (this.file && !this.file.readableEnded) this.file.destroy();
    this.file = null;
    // Whatever the client still sends is read and dropped, as node:http does for a body no one
    // reads, so the connection stays usable for its next request.
    if (!this.request.readableEnded) this.request.resume();
  }

  private createParser(limits: MultipartLimits): BusboyInstance | null {
    try {
      return new Busboy({
        headers: this.request.headers as BusboyConfig['headers'],
        limits,
        isPartAFile: (fieldName, _contentType, fileName) =>
          fieldName === 'file' || fileName !== undefined,
      });
    } catch (error) {
      // No boundary, or not multipart at all.
      this.end(error instanceof Error ? error : new Error(String(error)));
      return null;
    }
  }

  private onFile(fieldname: string, file: BusboyFileStream, fileName: string | undefined): void {
    // Errors of a part cut short also reach whoever reads the file; this records them for the
    // iteration, and keeps an unread file's error from being unhandled.
    file.on('error', (error: Error) => {
      if (error.message.includes('terminated early')) this.failure ??= error;
    });
    // A reader that destroys the file before its end stops busboy, which then never finishes.
    file.on('close', () => {
      if (!file.readableEnded) this.end(null);
    });
    this.file = file;
    this.push({ type: 'file', fieldname, file, fileName });
  }

  private readonly onFirstData = (): void => {
    this.sawData = true;
  };

  private readonly onRequestClose = (): void => {
    // A request that closed before its end leaves busboy waiting for data that never comes.
    if (!this.request.readableEnded)
      this.end(this.failure ?? new Error('the client closed the request before its end'));
  };

  private readonly onRequestError = (error: Error): void => this.end(error);

  private onParserError(error: Error): void {
    // An empty body is an empty form (its fields are then missing), not a truncated one.
    if (!this.sawData && error.message === 'Unexpected end of multipart data') this.end(null);
    else this.end(error);
  }

  /**
   * Ends the iteration with `error`, or with a failure seen earlier, or plainly. `unpipe` is
   * false for a parser limit: the part busboy holds must still reach the reader.
   */
  private end(error: Error | null, unpipe = true): void {
    if (unpipe && this.parser) {
      this.request.unpipe(this.parser);
      if (error && this.file) this.file.destroy(error);
      this.file = null;
    }
    if (this.ended) return;
    this.ended = true;
    this.push(error ?? this.failure);
  }

  private push(entry: Entry): void {
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = null;
      waiting(entry);
    } else {
      this.queue.push(entry);
    }
  }
}
