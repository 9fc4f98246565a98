import type Redis from 'ioredis';
import { openRedis } from '@verity/integrations';
import {
  LINK_WINDOWS_MS,
  type CallValues,
  type HistoryStore,
  type HistoryStorePolicy,
  type ObservedValue,
  type ReportChange,
  type ReportState,
  type StoredValue,
} from './history-store.port';

// Keys: `<prefix>{<scope>}:v:<hmac>` a hash (first, calls, f, l, t), `…:m:<hmac>` a sorted set
// of members scored by when each was last seen, `…:c:<request id>` a recent call's values.
// The braces make an account's keys one Redis Cluster slot, so one script may touch them all.

// KEYS[1] the recent call, then per value its hash and its member set. ARGV: now, cap, value
// TTL, link TTL, recent TTL, the recent call's JSON, then per value `1`/`0` (linked) and its
// member ('' for none). Answers per value {first, calls, f, l, t, c1h, c24h, c30d}.
const OBSERVE = `
local now = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[6], 'PX', ARGV[5])
local out = {}
for i = 1, (#KEYS - 1) / 2 do
  local v = KEYS[2 * i]
  local m = KEYS[2 * i + 1]
  redis.call('HSETNX', v, 'first', ARGV[1])
  redis.call('HINCRBY', v, 'calls', 1)
  redis.call('PEXPIRE', v, ARGV[3])
  local s = redis.call('HMGET', v, 'first', 'calls', 'f', 'l', 't')
  local c1, c24, c30 = -1, -1, -1
  if ARGV[5 + 2 * i] == '1' then
    local member = ARGV[6 + 2 * i]
    if member ~= '' then redis.call('ZADD', m, now, member) end
    redis.call('ZREMRANGEBYSCORE', m, '-inf', '(' .. tostring(now - tonumber(ARGV[4])))
    local size = redis.call('ZCARD', m)
    if size > cap then
      redis.call('ZREMRANGEBYRANK', m, 0, size - cap - 1)
      size = cap
    end
    c1 = redis.call('ZCOUNT', m, now - ${LINK_WINDOWS_MS.h1}, '+inf')
    c24 = redis.call('ZCOUNT', m, now - ${LINK_WINDOWS_MS.h24}, '+inf')
    c30 = redis.call('ZCOUNT', m, now - ${LINK_WINDOWS_MS.d30}, '+inf')
    redis.call('PEXPIRE', m, ARGV[4])
  end
  out[i] = { s[1], s[2], s[3] or '0', s[4] or '0', s[5] or '', c1, c24, c30 }
end
return out
`;

// Mirrors reweighed() in report-weight.ts. KEYS: the value hashes. ARGV: now, half-life,
// fraud change, legitimate change, value TTL.
const REPORT = `
local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  local s = redis.call('HMGET', KEYS[i], 'f', 'l', 't')
  local since = tonumber(s[3] or ARGV[1])
  local k = 2 ^ (-math.max(0, now - since) / tonumber(ARGV[2]))
  local f = math.max(0, tonumber(s[1] or '0') * k + tonumber(ARGV[3]))
  local l = math.max(0, tonumber(s[2] or '0') * k + tonumber(ARGV[4]))
  redis.call('HSET', KEYS[i], 'f', tostring(f), 'l', tostring(l), 't', ARGV[1])
  redis.call('PEXPIRE', KEYS[i], ARGV[5])
end
`;

// KEYS: value hashes; ARGV: now, value TTL, then fraud and legitimate per key. Only values
// without report weights take the restored ones.
const RESTORE = `
for i = 1, #KEYS do
  if redis.call('HEXISTS', KEYS[i], 't') == 0 then
    redis.call('HSET', KEYS[i], 'f', ARGV[1 + 2 * i], 'l', ARGV[2 + 2 * i], 't', ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  end
end
`;

type ObserveRow = [string, string, string, string, string, number, number, number];

/** Runs a script defined with defineCommand (ioredis adds it as a method). */
type Script<T> = (...args: (string | number)[]) => Promise<T>;

/** Restores are sent this many values per script call. */
const RESTORE_BATCH = 500;

/**
 * The history in Redis (`REDIS_URL`), shared by every API instance: one script per verify call
 * (one round trip), counts and report weights as every instance sees them.
 */
export class RedisHistoryStore implements HistoryStore {
  readonly survivesRestart = true;
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly policy: HistoryStorePolicy,
    private readonly prefix = 'verity:history:',
    onError: (error: Error) => void = () => undefined,
  ) {
    this.redis = openRedis(url, onError);
    this.redis.defineCommand('verityHistoryObserve', { lua: OBSERVE });
    this.redis.defineCommand('verityHistoryReport', { lua: REPORT });
    this.redis.defineCommand('verityHistoryRestore', { lua: RESTORE });
  }

  async observe(
    scope: string,
    at: number,
    values: readonly ObservedValue[],
    call: { requestId: string; values: CallValues },
  ): Promise<StoredValue[]> {
    const keys = [this.key(scope, 'c', call.requestId)];
    const args: (string | number)[] = [
      at,
      this.policy.memberCap,
      this.policy.valueTtlMs,
      this.policy.linkTtlMs,
      this.policy.recentTtlMs,
      JSON.stringify(call.values),
    ];
    for (const value of values) {
      keys.push(this.key(scope, 'v', value.key), this.key(scope, 'm', value.key));
      args.push(value.linked ? '1' : '0', value.member ?? '');
    }
    const rows = await this.script<ObserveRow[]>('verityHistoryObserve')(
      keys.length,
      ...keys,
      ...args,
    );
    return rows.map(([first, calls, fraud, legitimate, reportedAt, h1, h24, d30]) => ({
      first: Number(first),
      calls: Number(calls),
      fraud: Number(fraud),
      legitimate: Number(legitimate),
      reportedAt: reportedAt === '' ? at : Number(reportedAt),
      linked: h1 < 0 ? null : { h1, h24, d30 },
    }));
  }

  async recentCall(scope: string, requestId: string): Promise<CallValues | null> {
    const held = await this.redis.get(this.key(scope, 'c', requestId));
    return held === null ? null : (JSON.parse(held) as CallValues);
  }

  async report(
    scope: string,
    keys: readonly string[],
    change: ReportChange,
    at: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    await this.script<null>('verityHistoryReport')(
      keys.length,
      ...keys.map((key) => this.key(scope, 'v', key)),
      at,
      this.policy.halfLifeMs,
      change.fraud,
      change.legitimate,
      this.policy.valueTtlMs,
    );
  }

  async restore(scope: string, states: readonly ReportState[], at: number): Promise<void> {
    for (let i = 0; i < states.length; i += RESTORE_BATCH) {
      const batch = states.slice(i, i + RESTORE_BATCH);
      await this.script<null>('verityHistoryRestore')(
        batch.length,
        ...batch.map((state) => this.key(scope, 'v', state.key)),
        at,
        this.policy.valueTtlMs,
        ...batch.flatMap((state) => [state.fraud, state.legitimate]),
      );
    }
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  private key(scope: string, kind: 'v' | 'm' | 'c', id: string): string {
    return `${this.prefix}{${scope}}:${kind}:${id}`;
  }

  private script<T>(name: string): Script<T> {
    const method = (this.redis as unknown as Record<string, Script<T>>)[name];
    return method.bind(this.redis);
  }
}
