/** One DNS server: IP address and port. */
export interface DnsServer {
  host: string;
  port: number;
}

/** Record types the email engine asks for. */
export type DnsRecordType = 'MX' | 'A' | 'AAAA';

/** How one upstream DNS query ended (a metrics label). */
export type DnsQueryOutcome = 'answer' | 'nxdomain' | 'nodata' | 'servfail' | 'timeout' | 'error';

/** Optional hooks so metrics can be wired without a metrics library here. */
export interface DnsEvents {
  onQuery?(outcome: DnsQueryOutcome): void;
  onCacheHit?(): void;
  onCacheMiss?(): void;
}

/** An MX record as answered; `exchange` is '' for the root (null MX, RFC 7505). */
export interface MxRecord {
  exchange: string;
  preference: number;
}

/** A resolved RRset, or why there is none. Only `answer`, `nxdomain` and `nodata` are cached. */
export type DnsResult =
  | { status: 'answer'; mx: readonly MxRecord[]; addresses: readonly string[] }
  | { status: Exclude<DnsQueryOutcome, 'answer'> };
