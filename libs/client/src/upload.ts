import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadBody } from './transport';

/**
 * The CSV of a batch job: a file path (`string` or file `URL`, as in Node's own file APIs),
 * `{ content }` for CSV text, bytes, or a stream (Node `Readable`, web `ReadableStream`, any
 * async iterable of bytes). Files and streams are streamed, never read whole into memory.
 */
export type BatchFile =
  | string
  | URL
  | { content: string }
  | Uint8Array
  | NodeJS.ReadableStream
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

const encoder = new TextEncoder();

/**
 * multipart/form-data of POST /v1/batch, written by hand so that any stream can be the file
 * part (the global FormData takes only Blobs). Text fields go first.
 */
export async function multipartBody(
  fields: Record<string, string>,
  file: BatchFile,
): Promise<UploadBody> {
  const boundary = `verity-${randomBytes(16).toString('hex')}`;
  const { filename, open, replayable } = await fileSource(file);
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    if (/[\r\n]/.test(value)) throw new TypeError(`${name} must not contain line breaks`);
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    'Content-Type: text/csv\r\n\r\n';
  const tail = `\r\n--${boundary}--\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    replayable,
    async *open() {
      yield encoder.encode(head);
      for await (const chunk of open())
        yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      yield encoder.encode(tail);
    },
  };
}

interface FileSource {
  filename: string;
  open: () => AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>;
  replayable: boolean;
}

async function fileSource(file: BatchFile): Promise<FileSource> {
  if (typeof file === 'string' || file instanceof URL) {
    const path = typeof file === 'string' ? file : fileURLToPath(file);
    // Fail here with the file system's own error (ENOENT, EISDIR), not mid-upload.
    if (!(await stat(path)).isFile()) throw new Error(`${path} is not a file`);
    return {
      filename: safeName(basename(path)),
      open: () => createReadStream(path, { highWaterMark: 256 * 1024 }),
      replayable: true,
    };
  }
  if (file instanceof Uint8Array || (typeof file === 'object' && 'content' in file)) {
    const bytes = file instanceof Uint8Array ? file : encoder.encode(file.content);
    return {
      filename: 'upload.csv',
      open: () => [bytes],
      replayable: true,
    };
  }
  if (Symbol.asyncIterator in file) {
    const stream = file as AsyncIterable<Uint8Array | string>;
    return { filename: 'upload.csv', open: () => stream, replayable: false };
  }
  throw new TypeError('file must be a path, { content }, bytes or a readable stream');
}

/** A file name safe inside a quoted Content-Disposition parameter. */
function safeName(name: string): string {
  return name.replace(/[^\w.-]/g, '_') || 'upload.csv';
}
