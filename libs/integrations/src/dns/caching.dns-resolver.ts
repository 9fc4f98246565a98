import type * as packet from 'dns-packet';
import type { DnsEvents, DnsQueryOutcome, DnsRecordType, DnsResult, MxRecord } from './dns.types';
import { LruTtlCache } from './lru.cache';
import { DnsTimeoutError, RCODE, type DnsReply } from './udp.dns-transport';

/** Anything that sends one DNS query (the UDP transport, or a test double). */
export interface DnsQuerier {
  query(name: string, type: DnsRecordType): Promise<DnsReply>;
}

/** Cache limits of the resolver. */
export interface DnsCacheOptions {
  maxEntries: number;
  /** Upper bound for caching NXDOMAIN / no-data answers. */
  negativeTtlMs: number;
  /** Upper bound for positive answers, whatever TTL the zone gives. */
  maxTtlMs?: number;
  /** How long a failure (timeout, SERVFAIL, transport error) is remembered; 0 or unset: not at all. */
  failureTtlMs?: number;
}

const DEFAULT_MAX_TTL_MS = 3_600_000;

function normalize(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Negative answers live for min(SOA TTL, SOA MINIMUM) (RFC 2308 §5), capped by config. */
function negativeTtlMs(reply: DnsReply, capMs: number): number {
  const soa = reply.authorities.find((a): a is packet.SoaAnswer => a.type === 'SOA');
  if (soa === undefined) return capMs;
  const seconds = Math.min(soa.ttl ?? 0, soa.data.minimum ?? soa.ttl ?? 0);
  return Math.min(seconds * 1000, capMs);
}

/**
 * DNS answers through an LRU cache keyed by (type, name) that honours record TTLs, with one
 * in-flight query per key shared by every concurrent caller. A failure is remembered for a
 * few seconds (`failureTtlMs`), as resolvers do (RFC 2308 §7.1, §7.2), so a domain whose
 * servers time out costs one wait, not one per call.
 */
export class CachingDnsResolver {
  private readonly cache: LruTtlCache<DnsResult>;
  private readonly inflight = new Map<string, Promise<DnsResult>>();
  private readonly maxTtlMs: number;

  constructor(
    private readonly querier: DnsQuerier,
    private readonly options: DnsCacheOptions,
    private readonly events: DnsEvents = {},
    now?: () => number,
  ) {
    this.cache = new LruTtlCache(options.maxEntries, now);
    this.maxTtlMs = options.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
  }

  /** The cached RRset of (name, type), without a promise; undefined when not cached. */
  cached(name: string, type: DnsRecordType): DnsResult | undefined {
    const cached = this.cache.get(`${type} ${normalize(name)}`);
    if (cached !== undefined) this.events.onCacheHit?.();
    return cached;
  }

  /** The RRset of (name, type), from cache, a query already under way, or a new query. */
  resolve(name: string, type: DnsRecordType): Promise<DnsResult> {
    const key = `${type} ${normalize(name)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.events.onCacheHit?.();
      return Promise.resolve(cached);
    }
    const pending = this.inflight.get(key);
    if (pending !== undefined) {
      this.events.onCacheHit?.();
      return pending;
    }
    this.events.onCacheMiss?.();
    const query = this.fetch(key, normalize(name), type).finally(() => this.inflight.delete(key));
    this.inflight.set(key, query);
    return query;
  }

  private async fetch(key: string, name: string, type: DnsRecordType): Promise<DnsResult> {
    let reply: DnsReply;
    try {
      reply = await this.querier.query(name, type);
    } catch (err) {
      return this.failed(key, err instanceof DnsTimeoutError ? 'timeout' : 'error');
    }
    if (reply.rcode === RCODE.SERVFAIL) return this.failed(key, 'servfail');
    if (reply.rcode === RCODE.NXDOMAIN) {
      this.cache.set(key, { status: 'nxdomain' }, negativeTtlMs(reply, this.options.negativeTtlMs));
      return this.report({ status: 'nxdomain' });
    }
    if (reply.rcode !== RCODE.NOERROR) return this.failed(key, 'error');

    const mx: MxRecord[] = [];
    const addresses: string[] = [];
    let ttl = Infinity;
    for (const a of reply.answers) {
      if (a.type !== type) continue; // CNAME links of the chain and the like
      ttl = Math.min(ttl, a.ttl ?? 0);
      if (a.type === 'MX') {
        mx.push({ exchange: normalize(a.data.exchange), preference: a.data.preference ?? 0 });
      } else if (a.type === 'A' || a.type === 'AAAA') {
        addresses.push(a.data);
      }
    }
    if (mx.length === 0 && addresses.length === 0) {
      this.cache.set(key, { status: 'nodata' }, negativeTtlMs(reply, this.options.negativeTtlMs));
      return this.report({ status: 'nodata' });
    }
    const result: DnsResult = { status: 'answer', mx, addresses };
    this.cache.set(key, result, Math.min(ttl * 1000, this.maxTtlMs));
    return this.report(result);
  }

  private failed(key: string, outcome: 'timeout' | 'error' | 'servfail'): DnsResult {
    const result: DnsResult = { status: outcome };
    const ttl = this.options.failureTtlMs ?? 0;
    if (ttl > 0) this.cache.set(key, result, ttl);
    return this.report(result);
  }

  private report(result: DnsResult): DnsResult {
    const outcome: DnsQueryOutcome = result.status;
    this.events.onQuery?.(outcome);
    return result;
  }

  /** Drops every cached answer (tests, or an operator's flush). */
  clear(): void {
    this.cache.clear();
  }
}
