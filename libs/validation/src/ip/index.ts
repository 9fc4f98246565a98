// IP intelligence engine: geo, ASN, anonymizer flags and abuse score from injected lookups.
export { createIpEngine, type IpEngine, type IpEngineDeps } from './ip.engine';
export * from './ip.types';
export {
  parseIp,
  ipv4ToInt,
  intToIpv4,
  ipv6ToBigInt,
  bigIntToIpv6,
  type ParsedIp,
} from './ip-address';
export { parseCidr, parseBounds, IpRangeSet, IpRangeTable, type IpRange } from './ip-range';
export { isBogon, BOGON_CIDRS } from './ip-bogon';
export { abuseScore, ABUSE_WEIGHTS, BOGON_ABUSE_SCORE, type AbuseSignals } from './ip-abuse.scorer';
