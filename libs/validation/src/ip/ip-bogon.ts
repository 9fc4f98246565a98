import { parseCidr, IpRangeSet, type IpRange } from './ip-range';
import type { ParsedIp } from './ip-address';

/**
 * Addresses that are not globally routable, taken from the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and its updates) plus multicast and the reserved class E.
 * Deliberately not the "full bogon" list of unallocated space: that changes with RIR
 * allocations, and the registry ranges are stable and documented.
 */
export const BOGON_CIDRS: readonly string[] = [
  '0.0.0.0/8', // "this network", RFC 791
  '10.0.0.0/8', // private, RFC 1918
  '100.64.0.0/10', // shared address space (CGNAT), RFC 6598
  '127.0.0.0/8', // loopback, RFC 1122
  '169.254.0.0/16', // link-local, RFC 3927
  '172.16.0.0/12', // private, RFC 1918
  '192.0.0.0/24', // IETF protocol assignments, RFC 6890
  '192.0.2.0/24', // TEST-NET-1 documentation, RFC 5737
  '192.88.99.0/24', // deprecated 6to4 relay anycast, RFC 7526
  '192.168.0.0/16', // private, RFC 1918
  '198.18.0.0/15', // benchmarking, RFC 2544
  '198.51.100.0/24', // TEST-NET-2 documentation, RFC 5737
  '203.0.113.0/24', // TEST-NET-3 documentation, RFC 5737
  '224.0.0.0/4', // multicast, RFC 5771
  '240.0.0.0/4', // reserved class E and limited broadcast, RFC 1112 / RFC 919
  '::/128', // unspecified, RFC 4291
  '::1/128', // loopback, RFC 4291
  '64:ff9b:1::/48', // local-use IPv4/IPv6 translation, RFC 8215
  '100::/64', // discard-only, RFC 6666
  '2001:2::/48', // benchmarking, RFC 5180
  '2001:10::/28', // deprecated ORCHID, RFC 4843
  '2001:db8::/32', // documentation, RFC 3849
  '3fff::/20', // documentation, RFC 9637
  '5f00::/16', // SRv6 SIDs, RFC 9602
  'fc00::/7', // unique local (ULA), RFC 4193
  'fe80::/10', // link-local, RFC 4291
  'fec0::/10', // deprecated site-local, RFC 3879
  'ff00::/8', // multicast, RFC 4291
];

const BOGONS = IpRangeSet.from(
  BOGON_CIDRS.map((c) => parseCidr(c)).filter((r): r is IpRange => r !== null),
);

/** True for private, loopback, link-local, CGNAT, documentation, multicast and other non-routable addresses. */
export function isBogon(ip: ParsedIp): boolean {
  return BOGONS.has(ip);
}
