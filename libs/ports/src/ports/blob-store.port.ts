import type { Readable } from 'node:stream';
import { VerityError } from '@verity/common';

/** Size of a stored object. */
export interface BlobInfo {
  size: number;
}

/** Outcome of {@link BlobStore.abortIncompleteUploads}. */
export interface IncompleteUploads {
  /** Writes started before the cutoff, now aborted (their parts or temp files deleted). */
  aborted: number;
  /** Writes still in progress that started at or after the cutoff, left alone. */
  kept: number;
}

/**
 * Object storage (S3 semantics) with '/'-separated keys. Writes are atomic: a reader sees
 * the whole object or none of it.
 */
export interface BlobStore {
  /** Stores an object (streamed if `body` is a stream). */
  put(key: string, body: Buffer | Readable): Promise<void>;
  /** Stores a large object by multipart upload with bounded memory. */
  upload(key: string, body: Readable): Promise<void>;
  /** Opens an object for reading; rejects with {@link BlobNotFoundError} if absent. */
  get(key: string): Promise<Readable>;
  /** The object's size, or null if absent. */
  head(key: string): Promise<BlobInfo | null>;
  /** Removes an object; absent is fine. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a plain string prefix, as in S3). */
  deletePrefix(prefix: string): Promise<void>;
  /** Keys starting with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<string>;
  /**
   * Aborts writes of keys under `prefix` that started before `startedBefore` and never
   * completed (S3: multipart uploads; local: temp files), such as those of a process killed
   * mid-upload. A write aborted while still running fails and leaves no object.
   */
  abortIncompleteUploads(prefix: string, startedBefore: Date): Promise<IncompleteUploads>;
  /** Resolves if the store is reachable and writable; rejects otherwise (readiness). */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** The object does not exist. */
export class BlobNotFoundError extends VerityError {
  constructor(readonly key: string) {
    super('not_found', `blob not found: ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** The key is empty, absolute, or has empty, `.`/`..` or hidden segments. */
export class InvalidBlobKeyError extends VerityError {
  constructor(readonly key: string) {
    super('validation_error', `invalid blob key: ${JSON.stringify(key)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

/**
 * Rejects keys that could escape a directory root or collide with the local store's temp
 * area: segments must be non-empty, must not start with '.', and may not hold '\\' or NUL.
 * Both adapters apply it so a key valid on one backend is valid on the other.
 */
export function assertBlobKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || key.includes('\\') || key.includes('\0')) {
    throw new InvalidBlobKeyError(key);
  }
  for (const segment of key.split('/')) {
    if (segment.length === 0 || segment.startsWith('.')) throw new InvalidBlobKeyError(key);
  }
}

/** Prefixes may end with '/' (or be empty) but follow the key rules otherwise. */
export function assertBlobPrefix(prefix: string): void {
  if (prefix === '') return;
  assertBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}
