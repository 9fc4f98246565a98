import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { backendGate } from '@verity/testing';
import { S3BlobStore } from './s3.blob-store';

const s3 = backendGate('S3_ENDPOINT');

/** A loopback proxy to S3_ENDPOINT that records each request's method, path and headers. */
async function recordingProxy() {
  const target = new URL(process.env.S3_ENDPOINT!);
  const agent = new Agent({ keepAlive: true });
  const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, path: req.url!, headers: req.headers });
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
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
