import fastifyMultipart from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@verity/config';

/**
 * Streams multipart bodies (POST /v1/batch). Parts are read one at a time from the socket;
 * the file part goes straight to the blob store. busboy's own file limit is one byte above
 * BATCH_MAX_BYTES so the upload inspector, which counts the same bytes, reports the 413.
 */
export async function registerMultipart(
  app: NestFastifyApplication,
  config: AppConfig,
): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: {
      files: 1,
      fields: 8,
      parts: 10,
      fieldSize: 4096,
      fileSize: config.BATCH_MAX_BYTES + 1,
      headerPairs: 100,
    },
    // A part named "file" is the upload even without a filename, so it is always streamed.
    isPartAFile: (fieldName, _contentType, fileName) =>
      fieldName === 'file' || fileName !== undefined,
  });
}
