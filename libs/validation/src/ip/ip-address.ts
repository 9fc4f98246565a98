/** An IPv6 address as four big-endian 32-bit words (w[0] holds the top 32 bits). */
export type Ipv6Words = readonly [number, number, number, number];

/**
 * A parsed address: IPv4 as an unsigned 32-bit number; IPv6 as four 32-bit words (what the
 * range tables and the MMDB tree walk use) and, on demand, as a 128-bit bigint.
 */
export type ParsedIp =
  | { readonly version: 4; readonly v4: number; readonly text: string }
  | {
      readonly version: 6;
      readonly v6: bigint;
      readonly words: Ipv6Words;
      readonly text: string;
    };

/** IPv6 result of parseIp; the bigint is built only when someone reads `v6`. */
class ParsedIpv6 {
  readonly version = 6 as const;
  constructor(
    readonly words: Ipv6Words,
    readonly text: string,
  ) {}
  get v6(): bigint {
    return wordsToBigInt(this.words);
  }
}

/** Dotted quad to uint32; the caller has already checked the syntax (see parseIpv4). */
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

/**
 * Strict dotted quad to uint32, or -1. Accepts exactly what net.isIP accepts for IPv4: four
 * decimal octets 0–255 without leading zeros. One pass, no regex, no allocation.
 */
export function parseIpv4(text: string): number {
  const n = text.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return -1; // leading zero
      octet = octet * 10 + (c - 48);
      if (octet > 255) return -1;
      digits++;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** uint32 to dotted quad. */
export function intToIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

// The IPv6 text forms Node's net.isIPv6 accepts (its lib/internal/net.js, MIT licence): eight
// groups or fewer around one `::`, an IPv4 tail in the last 32 bits, and a zone suffix. The
// engines do no I/O, so they hold the grammar instead of importing node:net for it.
const V4_SEG = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4 = `(?:${V4_SEG}\\.){3}${V4_SEG}`;
const V6_SEG = '(?:[0-9a-fA-F]{1,4})';
const IPV6_TEXT = new RegExp(
  '^(?:' +
    `(?:${V6_SEG}:){7}(?:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){6}(?:${V4}|:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){5}(?::${V4}|(?::${V6_SEG}){1,2}|:)|` +
    `(?:${V6_SEG}:){4}(?:(?::${V6_SEG}){0,1}:${V4}|(?::${V6_SEG}){1,3}|:)|` +
    `(?:${V6_SEG}:){3}(?:(?::${V6_SEG}){0,2}:${V4}|(?::${V6_SEG}){1,4}|:)|` +
    `(?:${V6_SEG}:){2}(?:(?::${V6_SEG}){0,3}:${V4}|(?::${V6_SEG}){1,5}|:)|` +
    `(?:${V6_SEG}:){1}(?:(?::${V6_SEG}){0,4}:${V4}|(?::${V6_SEG}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEG}){0,5}:${V4}|(?::${V6_SEG}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);

/** Whether `text` is an IPv6 address as net.isIPv6 accepts it. */
export function isIpv6Text(text: string): boolean {
  return text.indexOf(':') >= 0 && IPV6_TEXT.test(text);
}

/** 4 for a dotted quad, 6 for an IPv6 text, 0 for anything else: what net.isIP answers. */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (parseIpv4(text) >= 0) return 4;
  return isIpv6Text(text) ? 6 : 0;
}

/**
 * A syntactically valid IPv6 text ({@link isIpv6Text}) to four 32-bit words; handles `::`,
 * an embedded IPv4 tail (RFC 4291 §2.2 form 3) and a zone suffix, which is ignored.
 */
export function ipv6ToWords(text: string): [number, number, number, number] {
  const zone = text.indexOf('%');
  const end = zone >= 0 ? zone : text.length;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gapAt = -1;
  let group = 0;
  let digits = 0;
  let i = 0;
  if (text.charCodeAt(0) === 58 && text.charCodeAt(1) === 58) {
    gapAt = 0;
    i = 2;
  }
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      groups[count++] = group;
      group = 0;
      digits = 0;
      if (text.charCodeAt(i + 1) === 58) {
        gapAt = count;
        i++;
      }
    } else if (c === 46) {
      // Embedded IPv4 tail: the digits since the last ':' start it.
      const tailStart = text.lastIndexOf(':', i) + 1;
      const v4 = ipv4ToInt(text.slice(tailStart, end));
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      digits = -1;
      break;
    } else {
      group = group * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
      digits++;
    }
  }
  if (digits > 0) groups[count++] = group;
  if (gapAt >= 0 && count < 8) {
    const shift = 8 - count;
    for (let k = count - 1; k >= gapAt; k--) groups[k + shift] = groups[k];
    for (let k = gapAt; k < gapAt + shift; k++) groups[k] = 0;
  }
  return [
    groups[0] * 65536 + groups[1],
    groups[2] * 65536 + groups[3],
    groups[4] * 65536 + groups[5],
    groups[6] * 65536 + groups[7],
  ];
}

/** Four 32-bit words to the 128-bit value. */
export function wordsToBigInt(w: Ipv6Words): bigint {
  return (BigInt(w[0]) << 96n) | (BigInt(w[1]) << 64n) | (BigInt(w[2]) << 32n) | BigInt(w[3]);
}

/** 128-bit value to four 32-bit words. */
export function bigIntToWords(v: bigint): [number, number, number, number] {
  return [
    Number((v >> 96n) & 0xffffffffn),
    Number((v >> 64n) & 0xffffffffn),
    Number((v >> 32n) & 0xffffffffn),
    Number(v & 0xffffffffn),
  ];
}

/** A syntactically valid IPv6 text to its 128-bit value (handles `::` and an embedded IPv4 tail). */
export function ipv6ToBigInt(text: string): bigint {
  return wordsToBigInt(ipv6ToWords(text));
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

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || c > 0x1fff;
}

/**
 * Parses user input. IPv4-mapped (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) and the deprecated
 * IPv4-compatible (`::a.b.c.d`, §2.5.5.1) IPv6 forms are folded to IPv4, as MMDB files do
 * (their IPv4 data lives under ::/96), so lists, bogon rules and databases see one address.
 * `::` and `::1` fold to 0.0.0.0 and 0.0.0.1, which are bogons either way.
 * Returns null when the text is not an IP address.
 */
export function parseIp(input: string): ParsedIp | null {
  // Trim only when needed: the common case is clean input and String#trim would copy it.
  const n = input.length;
  const text =
    n > 0 && (isSpace(input.charCodeAt(0)) || isSpace(input.charCodeAt(n - 1)))
      ? input.trim()
      : input;
  const v4 = parseIpv4(text);
  if (v4 >= 0) return { version: 4, v4, text };
  if (!isIpv6Text(text)) return null;
  const w = ipv6ToWords(text);
  if (w[0] === 0 && w[1] === 0 && (w[2] === 0xffff || w[2] === 0)) {
    const folded = w[3];
    return { version: 4, v4: folded, text: intToIpv4(folded) };
  }
  const zone = text.indexOf('%');
  return new ParsedIpv6(w, zone >= 0 ? text.slice(0, zone) : text);
}
