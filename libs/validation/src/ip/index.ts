// IP intelligence engine: geo, ASN, anonymizer flags and abuse score from injected lookups.
export { createIpEngine, type IpEngine, type IpEngineDeps } from './ip.engine';
export * from './ip.types';
export {
  parseIp,
  parseIpv4,
  ipv4ToInt,
  intToIpv4,
  ipv6ToBigInt,
  ipv6ToWords,
  bigIntToIpv6,
  bigIntToWords,
  wordsToBigInt,
  type Ipv6Words,
  type ParsedIp,
} from './ip-address';
export {
  parseCidr,
  parseBounds,
  IpRangeSet,
  IpRangeTable,
  floorIndexV4,
  floorIndexV6,
  compareV6,
  packV6,
  type IpRange,
} from './ip-range';
export { isBogon, BOGON_CIDRS } from './ip-bogon';
export { abuseScore, ABUSE_WEIGHTS, BOGON_ABUSE_SCORE, type AbuseSignals } from './ip-abuse.scorer';
