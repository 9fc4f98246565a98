import type { MxFailure, MxHost, MxLookup, MxResolver } from '@verity/validation';
import type { CachingDnsResolver } from './caching.dns-resolver';
import type { DnsResult, MxRecord } from './dns.types';

/** Resolves a host name to the addresses an SMTP probe may connect to. */
export interface HostAddressResolver {
  resolveAddresses(host: string): Promise<string[]>;
}

function failureOf(result: DnsResult): MxFailure | null {
  switch (result.status) {
    case 'timeout':
    case 'servfail':
    case 'error':
      return result.status;
    case 'answer':
    case 'nxdomain':
    case 'nodata':
      return null;
  }
}

/** RFC 7505 §3: a null MX is the only MX; if others sit beside it, we use the others. */
function mxOf(records: readonly MxRecord[]): MxLookup {
  const hosts: MxHost[] = records
    .filter((m) => m.exchange !== '')
    .map((m) => ({ exchange: m.exchange, preference: m.preference }))
    .sort((a, b) => a.preference - b.preference);
  return hosts.length === 0 ? { kind: 'null_mx' } : { kind: 'mx', hosts };
}

/**
 * The email engine's MX port over real DNS. Policy (docs/models/email.md):
 * - MX records: the hosts by preference; a lone "." exchange is a null MX (RFC 7505);
 * - NXDOMAIN: no mail;
 * - no MX but A/AAAA: implicit MX, the domain is its own mail host (RFC 5321 §5.1);
 * - timeout / SERVFAIL / transport error: unknown, never "no mail".
 */
export class DnsMxResolver implements MxResolver, HostAddressResolver {
  /** The lookup made of each cached MX answer, so a cache hit sorts and copies nothing. */
  private readonly fromAnswer = new WeakMap<DnsResult, MxLookup>();

  constructor(private readonly dns: CachingDnsResolver) {}

  /** A cached MX answer as a lookup, without a promise; undefined otherwise (ask lookupMx). */
  cachedMx(domain: string): MxLookup | undefined {
    const result = this.dns.cached(domain, 'MX');
    return result?.status === 'answer' ? this.ofAnswer(result) : undefined;
  }

  async lookupMx(domain: string): Promise<MxLookup> {
    const result = await this.dns.resolve(domain, 'MX');
    switch (result.status) {
      case 'answer':
        return this.ofAnswer(result);
      case 'nxdomain':
        return { kind: 'no_mail' };
      case 'nodata':
        return this.implicitMx(domain);
      case 'timeout':
      case 'servfail':
      case 'error':
        return { kind: 'unknown', reason: result.status };
    }
  }

  async resolveAddresses(host: string): Promise<string[]> {
    const [a, aaaa] = await Promise.all([
      this.dns.resolve(host, 'A'),
      this.dns.resolve(host, 'AAAA'),
    ]);
    return [a, aaaa].flatMap((r) => (r.status === 'answer' ? [...r.addresses] : []));
  }

  private ofAnswer(result: DnsResult & { status: 'answer' }): MxLookup {
    let lookup = this.fromAnswer.get(result);
    if (lookup === undefined) {
      lookup = mxOf(result.mx);
      this.fromAnswer.set(result, lookup);
    }
    return lookup;
  }

  private async implicitMx(domain: string): Promise<MxLookup> {
    const [a, aaaa] = await Promise.all([
      this.dns.resolve(domain, 'A'),
      this.dns.resolve(domain, 'AAAA'),
    ]);
    if (a.status === 'answer' || aaaa.status === 'answer') {
      return { kind: 'implicit', hosts: [{ exchange: domain.toLowerCase(), preference: 0 }] };
    }
    const failure = failureOf(a) ?? failureOf(aaaa);
    return failure === null ? { kind: 'no_mail' } : { kind: 'unknown', reason: failure };
  }
}
