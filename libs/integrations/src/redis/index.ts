// The Redis client every Redis adapter opens, and how its outage errors are told.
export { openRedis, recogniseRedisOutages } from './redis.client';
