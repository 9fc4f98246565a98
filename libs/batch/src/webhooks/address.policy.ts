import { isIP } from 'node:net';

// Which resolved addresses a webhook may connect to. Sources: IANA IPv4 and IPv6
// Special-Purpose Address Registries (RFC 6890 and updates), RFC 6598 (CGNAT), RFC 4291
// (IPv4-mapped), RFC 6052 (NAT64), RFC 3056 (6to4), RFC 4380 (Teredo), and the documented
// cloud metadata endpoints.

/** Why an address is not a permitted webhook target. */
export type ForbiddenReason =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'metadata'
  | 'documentation';

type Rule = readonly [prefix: string, bits: number, reason: ForbiddenReason];

const V4_RULES: readonly Rule[] = [
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
  ['168.63.129.16', 32, 'metadata'], // Azure WireServer (a public address)
  ['0.0.0.0', 8, 'unspecified'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'], // includes 100.100.100.200, Alibaba Cloud metadata
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'], // former 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255 broadcast
];

const V6_RULES: readonly Rule[] = [
  ['fd00:ec2::254', 128, 'metadata'], // AWS instance metadata over IPv6
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // deprecated IPv4-compatible addresses
  ['64:ff9b:1::', 48, 'private'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard-only
  ['2001::', 32, 'reserved'], // Teredo: the IPv4 it reaches is obfuscated
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // deprecated site-local
  ['ff00::', 8, 'multicast'],
];

type ParsedRule = readonly [prefix: Uint8Array, bits: number, reason: ForbiddenReason];
const parseRules = (rules: readonly Rule[], parse: (ip: string) => Uint8Array) =>
  rules.map(([ip, bits, reason]): ParsedRule => [parse(ip), bits, reason]);

function matches(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i] & mask) !== (prefix[i] & mask)) return false;
  }
  return true;
}

function parseV4(ip: string): Uint8Array {
  return Uint8Array.from(ip.split('.').map(Number));
}

// Expands an IPv6 literal (already checked by net.isIP) to 16 bytes.
function parseV6(ip: string): Uint8Array {
  let text = ip.replace(/%.*$/, ''); // zone id
  const bytes = new Uint8Array(16);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (dotted) {
    tail = [...parseV4(dotted[1])];
    text = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

const V4 = parseRules(V4_RULES, parseV4);
const V6 = parseRules(V6_RULES, parseV6);
const MAPPED = parseV6('::ffff:0:0');
const NAT64 = parseV6('64:ff9b::');
const SIX_TO_FOUR = parseV6('2002::');

function checkV4(bytes: Uint8Array): ForbiddenReason | null {
  for (const [prefix, bits, reason] of V4) if (matches(bytes, prefix, bits)) return reason;
  return null;
}

/**
 * Why `ip` (a literal IPv4 or IPv6 address) must not receive a webhook, or null when it is a
 * public unicast address. IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are
 * judged by that IPv4 address. A string that is not an IP literal is 'reserved'.
 */
export function forbiddenAddressReason(ip: string): ForbiddenReason | null {
  const family = isIP(ip);
  if (family === 4) return checkV4(parseV4(ip));
  if (family !== 6) return 'reserved';
  const bytes = parseV6(ip);
  for (const [prefix, bits, reason] of V6) if (matches(bytes, prefix, bits)) return reason;
  if (matches(bytes, MAPPED, 96)) return checkV4(bytes.subarray(12)); // ::ffff:a.b.c.d
  if (matches(bytes, NAT64, 96)) return checkV4(bytes.subarray(12));
  if (matches(bytes, SIX_TO_FOUR, 16)) return checkV4(bytes.subarray(2, 6));
  return null;
}

/**
 * A host name as the resolver will treat it: lower case, without the trailing dots of the
 * fully qualified form (`localhost.` is `localhost`). WHATWG URL parsing has already mapped
 * IDN and full-width spellings to ASCII (punycode).
 */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.+$/, '');
}

/**
 * Why a webhook URL's host (a name or an IP literal, without brackets) must not be called,
 * judged before any DNS lookup; null when only its resolved addresses can tell. The one
 * decision used at job creation and again at delivery.
 */
export function forbiddenHostReason(host: string): ForbiddenReason | null {
  const name = normalizeHost(host);
  if (isIP(name) !== 0) return forbiddenAddressReason(name);
  // RFC 6761 §6.3: such names always mean the loopback interface.
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return null;
}
