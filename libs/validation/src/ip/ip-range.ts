import {
  bigIntToWords,
  ipv4ToInt,
  ipVersion,
  parseIpv4,
  ipv6ToBigInt,
  type Ipv6Words,
  type ParsedIp,
} from './ip-address';

/** An inclusive address range of one family. */
export type IpRange =
  | { readonly version: 4; readonly start: number; readonly end: number }
  | { readonly version: 6; readonly start: bigint; readonly end: bigint };

const V6_MAX = (1n << 128n) - 1n;

/**
 * Parses `a.b.c.d/n`, `x::/n` or a bare address (a /32 or /128). Host bits set below the
 * prefix are ignored, as routers and the list publishers do. Returns null on anything else.
 */
export function parseCidr(text: string): IpRange | null {
  const slash = text.indexOf('/');
  const addr = slash >= 0 ? text.slice(0, slash) : text;
  const v4 = parseIpv4(addr);
  const version = v4 >= 0 ? 4 : ipVersion(addr);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  const prefix = slash >= 0 ? Number(text.slice(slash + 1)) : bits;
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > bits ||
    (slash >= 0 && text.slice(slash + 1) === '')
  )
    return null;
  if (version === 4) {
    const size = 2 ** (32 - prefix);
    const start = Math.floor(v4 / size) * size;
    return { version: 4, start, end: start + size - 1 };
  }
  const hostMask = (1n << BigInt(128 - prefix)) - 1n;
  const start = ipv6ToBigInt(addr) & (V6_MAX ^ hostMask);
  return { version: 6, start, end: start | hostMask };
}

/** Parses `first,last` style bounds (two addresses of one family); null if they do not match. */
export function parseBounds(first: string, last: string): IpRange | null {
  const version = ipVersion(first);
  if (version === 0 || ipVersion(last) !== version) return null;
  if (version === 4) {
    const start = ipv4ToInt(first);
    const end = ipv4ToInt(last);
    return start <= end ? { version: 4, start, end } : null;
  }
  const start = ipv6ToBigInt(first);
  const end = ipv6ToBigInt(last);
  return start <= end ? { version: 6, start, end } : null;
}

/** Index of the last start <= value in a sorted Uint32Array, or -1. */
export function floorIndexV4(starts: Uint32Array, value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] <= value) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Compares the 128-bit entry at `i` (4 words from i*4) of `arr` with `w`: <0, 0 or >0. */
export function compareV6(arr: Uint32Array, i: number, w: Ipv6Words): number {
  const o = i * 4;
  return arr[o] - w[0] || arr[o + 1] - w[1] || arr[o + 2] - w[2] || arr[o + 3] - w[3];
}

/** Index of the last 128-bit start <= w in a sorted stride-4 Uint32Array, or -1. */
export function floorIndexV6(starts: Uint32Array, w: Ipv6Words): number {
  let lo = 0;
  let hi = (starts.length >>> 2) - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compareV6(starts, mid, w) <= 0) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Packs 128-bit values into a stride-4 Uint32Array (big-endian word order). */
export function packV6(values: readonly bigint[]): Uint32Array {
  const out = new Uint32Array(values.length * 4);
  for (let i = 0; i < values.length; i++) out.set(bigIntToWords(values[i]), i * 4);
  return out;
}

/**
 * A set of address ranges answering membership by binary search over sorted, merged ranges:
 * O(log n) per lookup over flat typed arrays (uint32 for IPv4, four uint32 words per IPv6
 * bound), so a lookup allocates nothing.
 */
export class IpRangeSet {
  private constructor(
    private readonly v4Starts: Uint32Array,
    private readonly v4Ends: Uint32Array,
    private readonly v6Starts: Uint32Array,
    private readonly v6Ends: Uint32Array,
  ) {}

  /** Builds the set; overlapping and adjacent ranges are merged. */
  static from(ranges: Iterable<IpRange>): IpRangeSet {
    const v4: [number, number][] = [];
    const v6: [bigint, bigint][] = [];
    for (const r of ranges) {
      if (r.version === 4) v4.push([r.start, r.end]);
      else v6.push([r.start, r.end]);
    }
    v4.sort((a, b) => a[0] - b[0]);
    v6.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const m4 = merge4(v4);
    const m6 = merge6(v6);
    return new IpRangeSet(
      Uint32Array.from(m4, (r) => r[0]),
      Uint32Array.from(m4, (r) => r[1]),
      packV6(m6.map((r) => r[0])),
      packV6(m6.map((r) => r[1])),
    );
  }

  /** Number of merged ranges held. */
  get size(): number {
    return this.v4Starts.length + (this.v6Starts.length >>> 2);
  }

  /** True when the address falls in one of the ranges. */
  has(ip: ParsedIp): boolean {
    if (ip.version === 4) return this.hasV4(ip.v4);
    const i = floorIndexV6(this.v6Starts, ip.words);
    return i >= 0 && compareV6(this.v6Ends, i, ip.words) >= 0;
  }

  /** Membership of an IPv4 address given as uint32. */
  hasV4(v4: number): boolean {
    const i = floorIndexV4(this.v4Starts, v4);
    return i >= 0 && v4 <= this.v4Ends[i];
  }
}

/** Merges sorted ranges; `last + 1 >= start` also folds adjacent ranges (…255 then …0). */
function merge4(sorted: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

function merge6(sorted: [bigint, bigint][]): [bigint, bigint][] {
  const out: [bigint, bigint][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1n) last[1] = e > last[1] ? e : last[1];
    else out.push([s, e]);
  }
  return out;
}

/**
 * Ranges each carrying a value (e.g. an ASN record), looked up by binary search over flat
 * typed arrays. Where ranges overlap, the one with the greatest start at or below the address
 * wins (among equal starts, the last given).
 */
export class IpRangeTable<V> {
  private v4Starts = new Uint32Array(0);
  private v4Ends = new Uint32Array(0);
  private v4Values: V[] = [];
  private v6Starts = new Uint32Array(0);
  private v6Ends = new Uint32Array(0);
  private v6Values: V[] = [];

  /** Builds from (range, value) pairs in any order. */
  static from<V>(entries: Iterable<readonly [IpRange, V]>): IpRangeTable<V> {
    const v4: [number, number, V][] = [];
    const v6: [bigint, bigint, V][] = [];
    for (const [r, v] of entries) {
      if (r.version === 4) v4.push([r.start, r.end, v]);
      else v6.push([r.start, r.end, v]);
    }
    v4.sort((a, b) => a[0] - b[0]);
    v6.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const t = new IpRangeTable<V>();
    t.v4Starts = Uint32Array.from(v4, (e) => e[0]);
    t.v4Ends = Uint32Array.from(v4, (e) => e[1]);
    t.v4Values = v4.map((e) => e[2]);
    t.v6Starts = packV6(v6.map((e) => e[0]));
    t.v6Ends = packV6(v6.map((e) => e[1]));
    t.v6Values = v6.map((e) => e[2]);
    return t;
  }

  /** Number of ranges held. */
  get size(): number {
    return this.v4Starts.length + this.v6Values.length;
  }

  /** The value of the range holding the address, or null. */
  get(ip: ParsedIp): V | null {
    if (ip.version === 4) {
      const i = floorIndexV4(this.v4Starts, ip.v4);
      return i >= 0 && ip.v4 <= this.v4Ends[i] ? this.v4Values[i] : null;
    }
    const i = floorIndexV6(this.v6Starts, ip.words);
    return i >= 0 && compareV6(this.v6Ends, i, ip.words) >= 0 ? this.v6Values[i] : null;
  }
}
