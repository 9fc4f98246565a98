import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { infraOutageOf } from '@verity/common';
import { backendGate, startHttpProxy, type HttpProxyHooks } from '@verity/testing';
import { BlobNotFoundError } from '../ports/blob-store.port';
import { S3BlobStore } from './s3.blob-store';

const s3 = backendGate('S3_ENDPOINT');

/** A loopback proxy to S3_ENDPOINT that records each request's method, path and headers. */
async function recordingProxy(answer?: HttpProxyHooks['answer']) {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const proxy = await startHttpProxy(process.env.S3_ENDPOINT!, {
    onRequest: (req) => seen.push({ method: req.method!, path: req.url!, headers: req.headers }),
    answer,
  });
  return { ...proxy, seen };
}

function storeAt(endpoint: string, secretAccessKey = process.env.S3_SECRET_ACCESS_KEY) {
  return new S3BlobStore({
    endpoint,
    region: process.env.S3_REGION ?? 'us-east-1',
    bucket: process.env.S3_BUCKET ?? 'verity',
    accessKeyId: process.env.S3_ACCESS_KEY_ID,
    secretAccessKey,
    forcePathStyle: true,
  });
}

const SLOW_DOWN =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>';

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
      await store.deletePrefix(`${prefix}/`).catch(() => undefined);
      await store.close();
      await proxy.close();
    }
  });

  it("GET, PUT and UploadPart keep the SDK's retries: a 503 SlowDown is tried again", async () => {
    let refused = 0;
    // Every first attempt of a GET or PUT of an object is refused; the retry goes through.
    const refusedPaths = new Set<string>();
    const proxy = await recordingProxy((req, res) => {
      const key = `${req.method} ${req.url}`;
      if ((req.method !== 'GET' && req.method !== 'PUT') || refusedPaths.has(key)) return false;
      refusedPaths.add(key);
      refused++;
      res.writeHead(503, { 'content-type': 'application/xml' }).end(SLOW_DOWN);
      return true;
    });
    const store = storeAt(proxy.endpoint);
    const key = `retry-${randomBytes(4).toString('hex')}/a part with spaces & ü`;
    try {
      const body = randomBytes(2000);
      await store.put(key, body);
      assert.deepEqual(await buffer(await store.get(key)), body);
      assert.equal(refused, 2, 'one refusal each for the PUT and the GET');
      assert.equal(proxy.seen.filter((r) => r.method === 'PUT').length, 2);
      assert.equal(proxy.seen.filter((r) => r.method === 'GET').length, 2);
      await assert.rejects(store.get(`${key}-missing`), BlobNotFoundError);

      // Three parts (5 + 5 + 1 MiB), each refused once: the pieces are sent again.
      const big = randomBytes(11 * 1024 * 1024);
      const before = refused;
      await store.upload(`${key}-big`, Readable.from([big.subarray(0, 7e6), big.subarray(7e6)]));
      assert.equal(refused - before, 3);
      assert.deepEqual(await buffer(await store.get(`${key}-big`)), big);
    } finally {
      // Clean-up that fails must not hide the test's own error, nor leave the proxy open.
      await Promise.allSettled([store.delete(`${key}-big`), store.delete(key)]);
      await store.close();
      await proxy.close();
    }
  });

  it('a refusal that retrying cannot mend (a wrong secret) is thrown at once, as S3 named it', async () => {
    const proxy = await recordingProxy();
    const store = storeAt(proxy.endpoint, 'not-the-secret');
    try {
      const error = await store.get('any/key').then(
        () => assert.fail('a wrongly signed GET succeeded'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof S3ServiceException, String(error));
      assert.equal(error.$metadata.httpStatusCode, 403);
      assert.equal(error.name, 'SignatureDoesNotMatch');
      assert.equal(infraOutageOf(error), null, 'a client error is not an outage');
      assert.equal(proxy.seen.length, 1, 'not retried');
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('an S3 that does not answer fails the call after three attempts, as an S3 outage', async () => {
    const proxy = await recordingProxy((_req, res) => {
      res.socket?.destroy();
      return true;
    });
    const store = storeAt(proxy.endpoint);
    try {
      for (const call of [
        () => store.get('any/key'),
        () => store.put('any/key', Buffer.from('x')),
      ]) {
        const before = proxy.seen.length;
        const error = await call().then(
          () => assert.fail('a call to a dead S3 succeeded'),
          (e: unknown) => e,
        );
        assert.equal(infraOutageOf(error), 's3', String(error));
        assert.equal(proxy.seen.length - before, 3, 'three attempts');
      }
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('a body that fails after its first part aborts the multipart upload: no parts are left', async () => {
    const store = storeAt(process.env.S3_ENDPOINT!);
    const prefix = `aborted-${randomBytes(4).toString('hex')}/`;
    async function* failing() {
      yield randomBytes(6 * 1024 * 1024); // one whole part goes out
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw new Error('client went away');
    }
    try {
      await assert.rejects(store.upload(`${prefix}obj`, Readable.from(failing())), /went away/);
      assert.equal(await store.head(`${prefix}obj`), null);
      const later = new Date(Date.now() + 60_000);
      assert.deepEqual(await store.abortIncompleteUploads(prefix, later), { aborted: 0, kept: 0 });
    } finally {
      await store.close();
    }
  });
});
