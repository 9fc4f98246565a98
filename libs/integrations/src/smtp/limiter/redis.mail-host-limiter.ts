import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { openRedis } from '../../redis';
import {
  CONCURRENCY_POLL_MS,
  type HostPermit,
  type MailHostLimiter,
  type MailHostPolicy,
} from './mail-host-limiter.port';

// Time comes from the Redis server (TIME), so scorers with skewed clocks agree. KEYS: the
// host's slots (token → lapse time), starts (token → start time), backoff end, lowered cap.
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
`;

// Mirrors MemoryMailHostLimiter.acquire: backoff, then the cap, then the window.
const ACQUIRE = `${NOW}
local maxConcurrent = tonumber(ARGV[1])
local maxPerWindow = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
local leaseMs = tonumber(ARGV[4])
local token = ARGV[5]
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - windowMs)
local backoff = tonumber(redis.call('GET', KEYS[3]) or '0')
if backoff > now then return { 0, backoff - now, 'backoff' } end
local cap = tonumber(redis.call('GET', KEYS[4]) or ARGV[1])
if cap > maxConcurrent then cap = maxConcurrent end
if redis.call('ZCARD', KEYS[1]) >= cap then return { 0, tonumber(ARGV[6]), 'concurrency' } end
if redis.call('ZCARD', KEYS[2]) >= maxPerWindow then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  local wait = tonumber(oldest[2]) + windowMs - now
  if wait < 1 then wait = 1 end
  return { 0, wait, 'rate' }
end
redis.call('ZADD', KEYS[1], now + leaseMs, token)
redis.call('ZADD', KEYS[2], now, token)
redis.call('PEXPIRE', KEYS[1], leaseMs + 1000)
redis.call('PEXPIRE', KEYS[2], windowMs + 1000)
return { 1, 0, token }
`;

const REFUSED = `${NOW}
local backoffMs = tonumber(ARGV[1])
local learnedCapMs = tonumber(ARGV[2])
local untilMs = now + backoffMs
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if untilMs > current then redis.call('SET', KEYS[3], untilMs, 'PX', backoffMs) end
local cap = redis.call('ZCARD', KEYS[1]) - 1
if cap < 1 then cap = 1 end
redis.call('SET', KEYS[4], cap, 'PX', learnedCapMs)
return 1
`;

type AcquireReply = [number, number, string];
type Script = (...args: (string | number)[]) => Promise<unknown>;

/** The limiter in Redis (`REDIS_URL`): one set of caps for every scorer and API instance. */
export class RedisMailHostLimiter implements MailHostLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly policy: MailHostPolicy,
    private readonly prefix = 'verity:smtp-host:',
    onError: (error: Error) => void = () => undefined,
  ) {
    this.redis = openRedis(url, onError);
    this.redis.defineCommand('verityHostAcquire', { numberOfKeys: 4, lua: ACQUIRE });
    this.redis.defineCommand('verityHostRefused', { numberOfKeys: 4, lua: REFUSED });
  }

  async acquire(host: string): Promise<HostPermit> {
    const { maxConcurrent, maxPerWindow, windowMs, leaseMs } = this.policy;
    const [granted, wait, detail] = (await this.script('verityHostAcquire')(
      ...this.keys(host),
      maxConcurrent,
      maxPerWindow,
      windowMs,
      leaseMs,
      randomUUID(),
      CONCURRENCY_POLL_MS,
    )) as AcquireReply;
    if (granted === 1) return { granted: true, token: detail };
    return { granted: false, retryInMs: wait, cause: detail as 'concurrency' | 'rate' | 'backoff' };
  }

  async release(host: string, token: string): Promise<void> {
    await this.redis.zrem(this.keys(host)[0], token);
  }

  async refused(host: string, backoffMs: number): Promise<void> {
    await this.script('verityHostRefused')(...this.keys(host), backoffMs, this.policy.learnedCapMs);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  /** One hash tag per host, so a Redis Cluster keeps a host's keys on one node. */
  private keys(host: string): [string, string, string, string] {
    const base = `${this.prefix}{${host}}`;
    return [`${base}:slots`, `${base}:starts`, `${base}:backoff`, `${base}:cap`];
  }

  private script(name: string): Script {
    const fn = (this.redis as unknown as Record<string, Script>)[name];
    return fn.bind(this.redis);
  }
}
