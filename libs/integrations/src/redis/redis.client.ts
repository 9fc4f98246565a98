import Redis from 'ioredis';
import { recogniseOutages } from '@verity/common';

/**
 * ioredis's outage error: a command given up (MaxRetriesPerRequestError) after its retries
 * while the client could not reconnect. Bull's clients are ioredis clients too.
 */
function isRedisOutage(error: object): boolean {
  return error instanceof Error && error.name === 'MaxRetriesPerRequestError';
}

/** Makes ioredis's outage errors known to `infraOutageOf` (@verity/common). */
export function recogniseRedisOutages(): void {
  recogniseOutages('redis', isRedisOutage);
}

/**
 * The client of a Redis adapter (`REDIS_URL`): a command waits, queued, through two
 * reconnection attempts, then fails as an outage of `redis`. `onError` hears connection
 * errors; without a listener ioredis prints "[ioredis] Unhandled error event" itself.
 */
export function openRedis(url: string, onError: (error: Error) => void): Redis {
  recogniseRedisOutages();
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', onError);
  return redis;
}
