import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { infraOutageOf } from '@verity/common';
import { freePort } from '@verity/testing';
import { S3BlobStore } from './s3.blob-store';

function answer(name: string, status: number): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: status >= 500 ? 'server' : 'client',
    message: name,
    $metadata: { httpStatusCode: status },
  });
}

describe('the outage errors of the S3 blob store', () => {
  it('an S3 that refuses connections is an outage of s3, by the SDK and by the data path', async () => {
    const store = new S3BlobStore({
      endpoint: `http://127.0.0.1:${await freePort()}`,
      region: 'us-east-1',
      bucket: 'verity',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      forcePathStyle: true,
    });
    try {
      for (const call of [() => store.head('any/key'), () => store.get('any/key')]) {
        const error = await call().then(
          () => assert.fail('S3 answered on a closed port'),
          (e: unknown) => e,
        );
        assert.equal(infraOutageOf(error), 's3', String(error));
      }
    } finally {
      await store.close();
    }
  });

  it('a throttle or a 5xx answer is an outage; a 4xx answer is not', async () => {
    await new S3BlobStore({ bucket: 'verity', region: 'us-east-1' }).close(); // registers its test
    assert.equal(infraOutageOf(answer('SlowDown', 503)), 's3');
    assert.equal(infraOutageOf(answer('InternalError', 500)), 's3');
    assert.equal(infraOutageOf(answer('NoSuchKey', 404)), null);
    assert.equal(infraOutageOf(answer('AccessDenied', 403)), null);
  });
});
