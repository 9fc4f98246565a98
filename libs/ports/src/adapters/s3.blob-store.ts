import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobNotFoundError,
  type BlobInfo,
  type BlobStore,
  type IncompleteUploads,
} from '../ports/blob-store.port';
import { uploadStream } from './s3.multipart-upload';
import { S3ObjectHttp } from './s3.object-http';
import { recogniseS3Outages } from './s3.outage';

/** Connection settings of {@link S3BlobStore}. */
export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Multipart part size (S3 minimum 5 MiB) and parts in flight: memory ≈ partSize × queueSize. */
  partSizeBytes?: number;
  queueSize?: number;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' ||
      err.name === 'NoSuchUpload' ||
      err.name === 'NotFound' ||
      err.$metadata.httpStatusCode === 404)
  );
}

/** BlobStore on S3 or an S3-compatible server (S3Proxy, MinIO). Objects are atomic by nature. */
export class S3BlobStore implements BlobStore {
  private readonly s3: S3Client;
  /** GetObject, PutObject and UploadPart, the calls that carry data, without the SDK's middleware. */
  private readonly objects: S3ObjectHttp;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3BlobStoreOptions) {
    recogniseS3Outages();
    this.bucket = options.bucket;
    this.partSize = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? MIN_PART_BYTES);
    this.queueSize = Math.max(1, options.queueSize ?? 4);
    this.s3 = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // S3-compatible servers (S3Proxy) reject the SDK's default CRC32 checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // The data goes through `objects` (bodies as UNSIGNED-PAYLOAD); the SDK sends only control
    // calls, whose small XML bodies it hashes as usual.
    this.objects = new S3ObjectHttp(this.s3, this.bucket, {
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
    });
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    assertBlobKey(key);
    // A stream of unknown length cannot go in one PutObject: use the multipart path.
    if (!Buffer.isBuffer(body)) return this.upload(key, body);
    await this.objects.put(key, [body]);
  }

  async upload(key: string, body: Readable): Promise<void> {
    assertBlobKey(key);
    await uploadStream(
      {
        s3: this.s3,
        objects: this.objects,
        bucket: this.bucket,
        key,
        partSize: this.partSize,
        queueSize: this.queueSize,
      },
      body,
    );
  }

  async get(key: string): Promise<Readable> {
    assertBlobKey(key);
    try {
      return await this.objects.get(key);
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertBlobKey(key);
    try {
      const out = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const keys = batch;
      batch = [];
      await this.s3.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
    };
    // DeleteObjects takes at most 1,000 keys per call.
    for await (const key of this.list(prefix)) {
      batch.push(key);
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const obj of page.Contents ?? []) if (obj.Key) yield obj.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async abortIncompleteUploads(prefix: string, startedBefore: Date): Promise<IncompleteUploads> {
    assertBlobPrefix(prefix);
    const out = { aborted: 0, kept: 0 };
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.s3.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId) continue;
        if (!upload.Initiated || upload.Initiated >= startedBefore) {
          out.kept++;
          continue;
        }
        try {
          await this.s3.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          );
          out.aborted++;
        } catch (err) {
          if (!isNotFound(err)) throw err; // completed or aborted meanwhile
        }
      }
      [keyMarker, uploadIdMarker] = page.IsTruncated
        ? [page.NextKeyMarker, page.NextUploadIdMarker]
        : [undefined, undefined];
    } while (keyMarker !== undefined);
    return out;
  }

  async ping(): Promise<void> {
    await this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): Promise<void> {
    this.objects.close();
    this.s3.destroy();
    return Promise.resolve();
  }
}
