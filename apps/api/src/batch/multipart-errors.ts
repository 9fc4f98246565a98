import { VerityError } from '@verity/common';

/**
 * What an error raised while reading a multipart body means for the client. Our own limits
 * and timeouts are VerityErrors already; anything else (busboy's parser errors carry no code)
 * is the body's fault: a bad boundary, a part cut short, data that is not multipart at all, a
 * client that went away.
 */
export function multipartError(error: unknown): VerityError {
  if (error instanceof VerityError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new VerityError('validation_error', `malformed multipart body: ${detail}`);
}

/** A failure of the blob store while the upload was being written: ours, not the client's. */
export class StorageFailure extends Error {
  constructor(readonly error: unknown) {
    super('blob store failed', { cause: error });
    this.name = 'StorageFailure';
  }
}
