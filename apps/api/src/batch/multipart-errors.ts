import { VerityError } from '@verity/common';

// @fastify/multipart's own errors, by code. Busboy's parser errors carry no code: any other
// error raised while reading the body is the body's fault (a bad boundary, a part cut
// short, data that is not multipart at all, a client that went away).
const BY_CODE: Record<string, () => VerityError> = {
  FST_REQ_FILE_TOO_LARGE: () => new VerityError('payload_too_large', 'uploaded file is too large'),
  FST_PARTS_LIMIT: () =>
    new VerityError('validation_error', 'too many parts: send type, file and webhook_url'),
  FST_FILES_LIMIT: () => new VerityError('validation_error', 'send exactly one file'),
  FST_FIELDS_LIMIT: () =>
    new VerityError('validation_error', 'too many fields: send type, file and webhook_url'),
  FST_PROTO_VIOLATION: () => new VerityError('validation_error', 'invalid field name'),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    new VerityError(
      'validation_error',
      'Content-Type must be multipart/form-data with fields type and file',
    ),
};

/** What an error raised by the multipart parser means for the client. */
export function multipartError(error: unknown): VerityError {
  if (error instanceof VerityError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code && BY_CODE[code]) return BY_CODE[code]();
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
