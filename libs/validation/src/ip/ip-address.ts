import { isIP } from 'node:net';

/** A parsed address: IPv4 as an unsigned 32-bit number, IPv6 as a 128-bit bigint. */
export type ParsedIp =
  | { readonly version: 4; readonly v4: number; readonly text: string }
  | { readonly version: 6; readonly v6: bigint; readonly text: string };

const V4_MAPPED_HIGH = 0xffffn;

/** Dotted quad to uint32; the caller has already checked the syntax with net.isIP. */
export function ipv4ToInt(text: string): number {
  let value = 0;
  let octet = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else {
      octet = octet * 10 + (c - 48);
    }
  }
  return value * 256 + octet;
}

/** uint32 to dotted quad. */
export function intToIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** A syntactically valid IPv6 text to its 128-bit value (handles `::` and an embedded IPv4 tail). */
export function ipv6ToBigInt(text: string): bigint {
  const zone = text.indexOf('%');
  let s = zone >= 0 ? text.slice(0, zone) : text;
  const lastColon = s.lastIndexOf(':');
  if (s.indexOf('.', lastColon) >= 0) {
    // Embedded IPv4 tail (RFC 4291 §2.2 form 3): rewrite it as two hex groups.
    const v4 = ipv4ToInt(s.slice(lastColon + 1));
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const gap = s.indexOf('::');
  const parseGroups = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((g) => parseInt(g, 16));
  let groups: number[];
  if (gap < 0) {
    groups = parseGroups(s);
  } else {
    const head = parseGroups(s.slice(0, gap));
    const rest = parseGroups(s.slice(gap + 2));
    groups = [...head, ...Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return value;
}

/** 128-bit value to the canonical compressed text form (RFC 5952). */
export function bigIntToIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * Parses user input. IPv4-mapped (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) and the deprecated
 * IPv4-compatible (`::a.b.c.d`, §2.5.5.1) IPv6 forms are folded to IPv4, as MMDB files do
 * (their IPv4 data lives under ::/96), so lists, bogon rules and databases see one address.
 * `::` and `::1` fold to 0.0.0.0 and 0.0.0.1, which are bogons either way.
 * Returns null when the text is not an IP address.
 */
export function parseIp(input: string): ParsedIp | null {
  const text = input.trim();
  const version = isIP(text);
  if (version === 4) return { version: 4, v4: ipv4ToInt(text), text };
  if (version !== 6) return null;
  const v6 = ipv6ToBigInt(text);
  const high = v6 >> 32n;
  if (high === V4_MAPPED_HIGH || high === 0n) {
    const v4 = Number(v6 & 0xffffffffn);
    return { version: 4, v4, text: intToIpv4(v4) };
  }
  const zone = text.indexOf('%');
  return { version: 6, v6, text: zone >= 0 ? text.slice(0, zone) : text };
}
