import { isIPv6 } from 'node:net';

/**
 * The subject of a per-address limit: an IPv4 address as it is (IPv4-mapped IPv6 included),
 * an IPv6 address as its /64. A single customer's line or host gets a whole /64 (RFC 6177,
 * RFC 8273), so counting IPv6 addresses one by one would let one client be billions.
 */
export function addressSubject(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  return `${firstHextets(address.toLowerCase().split('%')[0], 4).join(':')}::/64`;
}

/** The first `count` 16-bit groups of an IPv6 address, written without leading zeros. */
function firstHextets(address: string, count: number): string[] {
  const [head, tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::ffff:a.b.c.d, 64:ff9b::a.b.c.d) counts as two groups.
  if (right.at(-1)?.includes('.')) right.splice(-1, 1, '0', '0');
  if (left.at(-1)?.includes('.')) left.splice(-1, 1, '0', '0');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right]
    .slice(0, count)
    .map((group) => (parseInt(group, 16) || 0).toString(16));
}
