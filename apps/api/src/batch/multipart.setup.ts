import type { FastifyInstance } from 'fastify';
import type { BatchConfig } from '@verity/config';
import type { MultipartLimits } from './multipart-parts';

/**
 * multipart/form-data (POST /v1/batch) is accepted and left unread: the upload service reads
 * its parts from the socket one at a time (multipartParts), and the file part goes straight to
 * the blob store. No other route, and no hook, does anything for multipart, so single calls pay
 * nothing for uploads.
 */
export function registerMultipart(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
}

/**
 * The parser's limits. busboy's own file limit is one byte above BATCH_MAX_BYTES so the upload
 * inspector, which counts the same bytes, reports the 413.
 */
export function multipartLimits(config: Pick<BatchConfig, 'BATCH_MAX_BYTES'>): MultipartLimits {
  return {
    files: 1,
    fields: 8,
    parts: 10,
    fieldSize: 4096,
    fileSize: config.BATCH_MAX_BYTES + 1,
    headerPairs: 100,
  };
}
