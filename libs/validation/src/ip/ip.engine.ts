import { InvalidInputError } from '@verity/common';
import type { ExplainedIpFields, IpFields } from '@verity/contracts';
import { parseIp } from './ip-address';
import { isBogon } from './ip-bogon';
import { abuseScore, BOGON_ABUSE_SCORE } from './ip-abuse.scorer';
import { isCloudProviderOrg } from './cloud-provider-orgs';
import type { AnonymousLookup, AsnLookup, GeoLookup, IpListSet } from './ip.types';

/** What the IP engine is built from: databases and open-data lists, all injected. */
export interface IpEngineDeps {
  readonly geo: GeoLookup;
  readonly asn: AsnLookup;
  readonly anonymous?: AnonymousLookup;
  readonly lists: IpListSet;
}

/** Synchronous IP intelligence over injected lookups. */
export interface IpEngine {
  /** Throws InvalidInputError (422) for a non-IP input, UpstreamUnavailableError when a database is down. */
  lookup(input: string): IpFields;
  /** `lookup` plus every open-data list's state and whether it holds the address. */
  explain(input: string): ExplainedIpFields;
}

/** Builds the IP engine; it does no I/O of its own. */
export function createIpEngine(deps: IpEngineDeps): IpEngine {
  const { geo, asn, anonymous, lists } = deps;
  const lookup = (input: string): IpFields => {
    const ip = parseIp(input);
    if (ip === null) throw new InvalidInputError('ip must be an IPv4 or IPv6 address');
    if (isBogon(ip)) {
      // Not routable on the Internet: no location, owner or reputation can exist for it.
      return {
        input,
        country: null,
        city: null,
        asn: null,
        asn_org: null,
        vpn: false,
        proxy: false,
        tor: false,
        datacenter: false,
        abuse_score: BOGON_ABUSE_SCORE,
      };
    }
    const g = geo.geo(ip);
    const a = asn.asn(ip);
    const asnNumber = a === null ? null : a.asn;
    const anon = anonymous === undefined ? null : anonymous.anonymous(ip);
    const hit = lists.match(ip, asnNumber);
    let vpn = hit.vpn;
    let proxy = hit.proxy;
    let tor = hit.tor;
    let datacenter = hit.datacenter || (a !== null && isCloudProviderOrg(a.org));
    let risk: number | null = null;
    if (anon !== null) {
      vpn ||= anon.vpn;
      proxy ||= anon.proxy;
      tor ||= anon.tor;
      datacenter ||= anon.datacenter;
      risk = anon.risk;
    }
    // Clean addresses (the common case) skip building the signal record: the score is 0.
    const flagged = vpn || proxy || tor || datacenter || hit.blocklisted || risk !== null;
    return {
      input,
      country: g === null ? null : g.country,
      city: g === null ? null : g.city,
      asn: asnNumber,
      asn_org: a === null ? null : a.org,
      vpn,
      proxy,
      tor,
      datacenter,
      abuse_score: flagged
        ? abuseScore({ tor, proxy, vpn, datacenter, blocklisted: hit.blocklisted, risk })
        : 0,
    };
  };
  return {
    lookup,
    explain(input: string): ExplainedIpFields {
      const fields = lookup(input);
      const ip = parseIp(input)!;
      return { ...fields, lists: lists.evidence?.(ip, fields.asn) ?? [] };
    },
  };
}
