import { createHash } from 'node:crypto';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  fileTooLarge,
  SINGLE_COLUMN,
  TableInspector,
  type NewJobInput,
  type TableFormat,
  type UploadLimits,
} from '@verity/batch';
import type { VerityError } from '@verity/common';
import type { BlobStore } from '@verity/ports';
import { StorageFailure } from './multipart-errors';

/** The file part as stored: its row count and, when asked for, its digest. */
export interface StoredFile {
  rows: number;
  sha256: string | null;
  /** The resolved format when the file was read as a multi-column file. */
  input: NewJobInput | null;
  /** The single-column grammar's refusal of a file stored before its format was known. */
  refusal: VerityError | null;
}

function isPrematureClose(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * file part → inspector → hash (when `digest`) → blob store at `key`, in bounded memory. The
 * inspector reads the file in `format`; without one (no `column` yet) as the single-column
 * file, holding its 422 back for when a `column` still follows (docs/batch.md, "Fields in any
 * order"). `pipeline` also sees a part that failed before we got it (the parser runs ahead of
 * us). A refusal deletes what was stored; blob store failures come out as StorageFailure.
 */
export async function storeUpload(
  blobs: BlobStore,
  limits: UploadLimits,
  source: Readable,
  key: string,
  digest: boolean,
  format: TableFormat | null,
): Promise<StoredFile> {
  const inspector = new TableInspector(limits, format ?? SINGLE_COLUMN, {
    holdRefusal: format === null,
  });
  const hash = digest ? createHash('sha256') : null;
  const stages: [Readable, ...Transform[]] = [source, inspector];
  if (hash) {
    stages.push(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          callback(null, chunk);
        },
      }),
    );
  }
  const stored = stages[stages.length - 1];
  let failure: Error | undefined;
  const feeding = pipeline(stages).catch((error: Error) => {
    failure ??= error;
  });
  try {
    await blobs.upload(key, stored);
  } catch (error) {
    await feeding;
    // A body failure reaches the blob store through the stream it reads (the same error); a
    // blob store failure reaches the body's pipeline only as a premature close.
    if (failure !== undefined && (failure === error || !isPrematureClose(failure))) throw failure;
    throw new StorageFailure(error);
  }
  await feeding;
  // busboy truncates at its own limit instead of failing; the inspector's limit is lower.
  if (failure === undefined && (source as Readable & { truncated?: boolean }).truncated) {
    failure = fileTooLarge(limits.maxBytes);
  }
  if (failure !== undefined) {
    await blobs.delete(key).catch((e: unknown) => {
      throw new StorageFailure(e);
    });
    throw failure;
  }
  const sha256 = hash?.digest('hex') ?? null;
  return { rows: inspector.rows, sha256, input: inspector.input, refusal: inspector.refusal };
}

/**
 * Reads the stored upload at `key` again through the inspector in `format` (a `column` that
 * came after the file): its rows and resolved format, or the inspector's 413/422. Blob store errors
 * stay internal (an outage becomes 503 through the error filter); the caller deletes the upload
 * on any failure.
 */
export async function rereadUpload(
  blobs: BlobStore,
  limits: UploadLimits,
  key: string,
  format: TableFormat,
): Promise<{ rows: number; input: NewJobInput | null }> {
  const inspector = new TableInspector(limits, format);
  const discard = new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });
  await pipeline(await blobs.get(key), inspector, discard);
  return { rows: inspector.rows, input: inspector.input };
}
