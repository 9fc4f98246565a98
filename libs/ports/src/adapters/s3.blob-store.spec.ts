import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { backendGate, startHttpProxy } from '@verity/testing';
import { S3BlobStore } from './s3.blob-store';

const s3 = backendGate('S3_ENDPOINT');

/** A loopback proxy to S3_ENDPOINT that records each request's method, path and headers. */
async function recordingProxy() {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const proxy = await startHttpProxy(process.env.S3_ENDPOINT!, {
    onRequest: (req) => seen.push({ method: req.method!, path: req.url!, headers: req.headers }),
  });
  return { ...proxy, seen };
}

describe('S3BlobStore on the wire', { skip: s3.skip }, () => {
  it('signs requests but sends bodies as UNSIGNED-PAYLOAD, and they arrive intact', async () => {
    const proxy = await recordingProxy();
    const store = new S3BlobStore({
      endpoint: proxy.endpoint,
      region: process.env.S3_REGION ?? 'us-east-1',
      bucket: process.env.S3_BUCKET ?? 'verity',
      accessKeyId: process.env.S3_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
    });
    const prefix = `wire-${randomBytes(4).toString('hex')}`;
    try {
      const small = randomBytes(1000);
      await store.put(`${prefix}/small`, small);
      // Two multipart parts (5 MiB minimum part size) and a short last one.
      const big = randomBytes(11 * 1024 * 1024);
      await store.upload(`${prefix}/big`, Readable.from([big.subarray(0, 3e6), big.subarray(3e6)]));
      assert.deepEqual(await buffer(await store.get(`${prefix}/small`)), small);
      assert.deepEqual(await buffer(await store.get(`${prefix}/big`)), big);

      const withBody = proxy.seen.filter((r) => r.method === 'PUT');
      assert.ok(
        withBody.length >= 4,
        `PutObject and three UploadPart calls, saw ${withBody.length}`,
      );
      for (const r of withBody) {
        assert.equal(r.headers['x-amz-content-sha256'], 'UNSIGNED-PAYLOAD', r.path);
        assert.match(String(r.headers.authorization), /^AWS4-HMAC-SHA256 /);
      }
      // A request without a body keeps the hash of the empty payload.
      const read = proxy.seen.find((r) => r.method === 'GET');
      assert.match(String(read?.headers['x-amz-content-sha256']), /^[0-9a-f]{64}$/);
    } finally {
      await store.deletePrefix(`${prefix}/`);
      await store.close();
      await proxy.close();
    }
  });
});
