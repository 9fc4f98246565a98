import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { S3ObjectHttp } from './s3.object-http';

/** Where a stream goes and how it is cut: parts of `partSize` bytes, `queueSize` in flight. */
export interface MultipartTarget {
  s3: S3Client;
  objects: S3ObjectHttp;
  bucket: string;
  key: string;
  partSize: number;
  queueSize: number;
}

/**
 * Streams `body` into one object. A body shorter than a part goes in one PutObject; a longer one
 * in a multipart upload of `partSize`-byte parts (the last shorter), up to `queueSize` of them
 * sent while the next is read, so memory holds about partSize × (queueSize + 1). A part is sent
 * as the pieces it was read in (no copy into one buffer, which lib-storage made of every byte).
 * Any failure aborts the upload, so no parts are left behind, and is thrown.
 */
export async function uploadStream(target: MultipartTarget, body: Readable): Promise<void> {
  const { s3, objects, bucket, key, partSize, queueSize } = target;
  let uploadId: string | undefined;
  let nextPart = 1;
  const parts: CompletedPart[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;

  const send = async (pieces: Buffer[]) => {
    uploadId ??= await createUpload(s3, bucket, key);
    while (inFlight.size >= queueSize) await Promise.race(inFlight);
    if (failure) throw failure.error;
    const PartNumber = nextPart++;
    const sent = objects
      .uploadPart(key, uploadId, PartNumber, pieces)
      .then((ETag) => void parts.push({ PartNumber, ETag }))
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };

  try {
    let pieces: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      let piece = chunk;
      while (size + piece.length >= partSize) {
        const take = partSize - size;
        pieces.push(piece.subarray(0, take));
        piece = piece.subarray(take);
        await send(pieces);
        [pieces, size] = [[], 0];
      }
      if (piece.length > 0) {
        pieces.push(piece);
        size += piece.length;
      }
    }
    if (uploadId === undefined) return await objects.put(key, pieces);
    if (size > 0) await send(pieces);
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (error) {
    await Promise.allSettled(inFlight);
    if (uploadId !== undefined) {
      await s3
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
        .catch(() => undefined); // ingest's sweep aborts uploads left incomplete
    }
    throw error;
  }
}

async function createUpload(s3: S3Client, bucket: string, key: string): Promise<string> {
  const out = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  if (!out.UploadId) throw new Error(`S3 started no multipart upload for ${key}`);
  return out.UploadId;
}
