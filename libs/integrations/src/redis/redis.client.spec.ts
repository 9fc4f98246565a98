import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { infraOutageOf } from '@verity/common';
import { backendGate, freePort } from '@verity/testing';
import { openRedis } from './redis.client';

describe('openRedis: the outage errors of a Redis adapter', () => {
  it('a command to a Redis that refuses connections fails as an outage of redis', async () => {
    const heard: Error[] = [];
    const redis = openRedis(`redis://127.0.0.1:${await freePort()}`, (e) => heard.push(e));
    try {
      const error = await redis.ping().then(
        () => assert.fail('Redis answered on a closed port'),
        (e: unknown) => e,
      );
      assert.equal(infraOutageOf(error), 'redis', String(error));
      assert.ok(heard.length > 0, 'the connection errors reach onError');
    } finally {
      redis.disconnect();
    }
  });

  it(
    'an error Redis answers (a command on the wrong type) is not an outage',
    {
      skip: backendGate('REDIS_URL').skip,
    },
    async () => {
      const redis = openRedis(process.env.REDIS_URL!, () => undefined);
      const key = `verity:outage-probe:${process.pid}`;
      try {
        await redis.set(key, 'text', 'PX', 10_000);
        const error = await redis.lpush(key, 'x').then(
          () => assert.fail('LPUSH on a string succeeded'),
          (e: unknown) => e,
        );
        assert.match(String(error), /WRONGTYPE/);
        assert.equal(infraOutageOf(error), null);
      } finally {
        await redis.del(key);
        await redis.quit();
      }
    },
  );
});
