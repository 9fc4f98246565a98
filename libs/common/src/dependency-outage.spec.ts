import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Redis from 'ioredis';
import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
} from 'kafkajs';
import { Client, DatabaseError } from 'pg';
import { infraOutageOf } from './dependency-outage';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

function pgError(code: string): DatabaseError {
  const e = new DatabaseError('server said no', 0, 'error');
  e.code = code;
  return e;
}

describe('infraOutageOf', () => {
  it('PostgreSQL: connection class 08, shutdowns and too many connections are outages', () => {
    for (const code of ['08006', '08001', '57P01', '57P02', '57P03', '53300'])
      assert.equal(infraOutageOf(pgError(code)), 'postgres', code);
    for (const code of ['23505', '42601', '22P02', '40001', '57014'])
      assert.equal(infraOutageOf(pgError(code)), null, code);
    // TypeORM's QueryFailedError keeps the driver's error.
    const wrapped = Object.assign(new Error('query failed'), { driverError: pgError('57P01') });
    assert.equal(infraOutageOf(wrapped), 'postgres');
  });

  it('a real refused connection of pg, the AWS SDK and ioredis', async () => {
    const port = await closedPort();
    const pg = new Client({ connectionString: `postgres://x@127.0.0.1:${port}/x` });
    const pgFailure = await pg.connect().then(
      () => assert.fail('connected to a closed port'),
      (e: unknown) => e,
    );
    assert.equal(infraOutageOf(pgFailure), 'network');

    const s3 = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      maxAttempts: 1,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    const s3Failure = await s3.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })).then(
      () => assert.fail('S3 answered on a closed port'),
      (e: unknown) => e,
    );
    s3.destroy();
    assert.equal(infraOutageOf(s3Failure), 's3');

    const redis = new Redis(port, '127.0.0.1', {
      maxRetriesPerRequest: 1,
      retryStrategy: () => 10,
      lazyConnect: false,
    });
    redis.on('error', () => undefined);
    const redisFailure = await redis.ping().then(
      () => assert.fail('Redis answered on a closed port'),
      (e: unknown) => e,
    );
    redis.disconnect();
    assert.equal(infraOutageOf(redisFailure), 'redis');
  });

  it('kafkajs: retriable errors, also when wrapped by the retrier; non-retriable ones are not', () => {
    const lost = new KafkaJSConnectionError('Connection error', { broker: '127.0.0.1:1' });
    assert.equal(infraOutageOf(lost), 'kafka');
    assert.equal(
      infraOutageOf(new KafkaJSNumberOfRetriesExceeded(lost, { retryCount: 5, retryTime: 100 })),
      'kafka',
    );
    assert.equal(infraOutageOf(new KafkaJSNonRetriableError('bad message')), null);
  });

  it('permanent failures and non-errors are not outages; messages are never read', () => {
    assert.equal(infraOutageOf(new Error('connect ECONNREFUSED 127.0.0.1:5432')), null);
    assert.equal(infraOutageOf(Object.assign(new Error('x'), { code: 'ENOENT', errno: -2 })), null);
    assert.equal(
      infraOutageOf(
        Object.assign(new Error('x'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } }),
      ),
      null,
    );
    assert.equal(
      infraOutageOf(
        Object.assign(new Error('x'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } }),
      ),
      's3',
    );
    assert.equal(infraOutageOf(undefined), null);
    assert.equal(infraOutageOf('ECONNREFUSED'), null);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    assert.equal(infraOutageOf(loop), null);
  });
});
