import type { IpListEvidence } from '@verity/contracts';
import type { ParsedIp } from './ip-address';

/** Location of an address; fields are null when the database has no answer for them. */
export interface GeoRecord {
  readonly country: string | null;
  readonly city: string | null;
}

/** Autonomous system announcing an address. */
export interface AsnRecord {
  readonly asn: number | null;
  readonly org: string | null;
}

/** Flags from a commercial anonymizer database (MaxMind Anonymous-IP / Anonymous-Plus / IP-Risk). */
export interface AnonymousRecord {
  readonly vpn: boolean;
  readonly proxy: boolean;
  readonly tor: boolean;
  readonly datacenter: boolean;
  /** MaxMind `ip_risk` (0.01–99) when the database carries it, else null. */
  readonly risk: number | null;
}

/** Hits in the open-data lists (Tor exits, VPN and datacenter ranges, abuse blocklists). */
export interface ListMatch {
  readonly tor: boolean;
  readonly vpn: boolean;
  readonly proxy: boolean;
  readonly datacenter: boolean;
  readonly blocklisted: boolean;
}

/** City/country database. Throws UpstreamUnavailableError when the database cannot be read. */
export interface GeoLookup {
  geo(ip: ParsedIp): GeoRecord | null;
}

/** ASN database. Throws UpstreamUnavailableError when the database cannot be read. */
export interface AsnLookup {
  asn(ip: ParsedIp): AsnRecord | null;
}

/** Optional anonymizer database. Throws UpstreamUnavailableError when it cannot be read. */
export interface AnonymousLookup {
  anonymous(ip: ParsedIp): AnonymousRecord | null;
}

/** Open-data lists; `asn` lets ASN-keyed lists (e.g. X4BNet datacenter ASNs) match too. */
export interface IpListSet {
  match(ip: ParsedIp, asn: number | null): ListMatch;
  /** Every list with its state and whether it holds the address (the slow, explain path). */
  evidence?(ip: ParsedIp, asn: number | null): IpListEvidence[];
}

/** No list hit at all. */
export const NO_LIST_MATCH: ListMatch = Object.freeze({
  tor: false,
  vpn: false,
  proxy: false,
  datacenter: false,
  blocklisted: false,
});
