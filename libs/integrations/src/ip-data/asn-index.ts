import {
  compareV6,
  floorIndexV4,
  floorIndexV6,
  type AsnRecord,
  type ParsedIp,
} from '@verity/validation';

/**
 * Binary ASN index: the ip-location-db ASN ranges as flat uint32 arrays, so loading is a few
 * typed-array views over one file read and a lookup is a binary search that allocates nothing.
 *
 * Layout (native byte order, every section 4-byte aligned; a reader on the other byte order
 * sees a wrong magic and rebuilds):
 *   header  u32[16]  magic, format, n4, n6, nRec, orgBytes, keyBytes, 0…
 *   key     utf8     the cache key it was built for, padded to 4
 *   v4      u32[n4] starts, u32[n4] ends, u32[n4] record index
 *   v6      u32[4·n6] starts, u32[4·n6] ends (four big-endian-ordered words each), u32[n6] record index
 *   records u32[nRec] ASN (0 = none), u32[nRec + 1] org byte offsets
 *   orgs    utf8     organisation names, concatenated, padded to 4
 */
const MAGIC = 0x4e534156; // "VASN" read little-endian
/** Bump when the layout or the CSV interpretation changes: old cache files then rebuild. */
export const ASN_INDEX_FORMAT = 1;
const HEADER_WORDS = 16;

const pad4 = (n: number): number => (n + 3) & ~3;

/** Parsed sections of an index file, as views over its bytes. */
interface Sections {
  readonly v4Starts: Uint32Array;
  readonly v4Ends: Uint32Array;
  readonly v4Recs: Uint32Array;
  readonly v6Starts: Uint32Array;
  readonly v6Ends: Uint32Array;
  readonly v6Recs: Uint32Array;
  readonly recAsn: Uint32Array;
  readonly orgOffsets: Uint32Array;
  readonly orgs: Buffer;
  readonly key: string;
}

/** Ranges → ASN records, read from the binary layout above. */
export class AsnIndex {
  private readonly records: (AsnRecord | undefined)[];

  private constructor(
    private readonly s: Sections,
    /** Size of the index file in bytes. */
    readonly byteLength: number,
  ) {
    this.records = new Array<AsnRecord | undefined>(s.recAsn.length);
  }

  /** The key the index was built for (source files, sizes, mtimes, package version). */
  get key(): string {
    return this.s.key;
  }

  /** Number of ranges held. */
  get size(): number {
    return this.s.v4Starts.length + this.s.v6Recs.length;
  }

  /**
   * Views a serialized index; null when the bytes are not a complete, consistent index of
   * this format (or, with expectedKey, were built for another source). Every record index and
   * org offset is checked here, so a corrupt cache file is rebuilt rather than crashing lookups.
   */
  static fromBytes(bytes: Uint8Array, expectedKey: string | null = null): AsnIndex | null {
    // Typed-array views need 4-byte alignment; a whole-file read is normally at offset 0.
    const buf =
      bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes.buffer.slice(bytes.byteOffset));
    if (buf.byteLength < HEADER_WORDS * 4) return null;
    const h = new Uint32Array(buf.buffer, buf.byteOffset, HEADER_WORDS);
    if (h[0] !== MAGIC || h[1] !== ASN_INDEX_FORMAT) return null;
    const [n4, n6, nRec, orgLen, keyLen] = [h[2], h[3], h[4], h[5], h[6]];
    const total =
      HEADER_WORDS * 4 +
      pad4(keyLen) +
      12 * n4 +
      36 * n6 +
      4 * nRec +
      4 * (nRec + 1) +
      pad4(orgLen);
    if (buf.byteLength !== total) return null;
    let off = buf.byteOffset + HEADER_WORDS * 4;
    const key = Buffer.from(buf.buffer, off, keyLen).toString('utf8');
    if (expectedKey !== null && key !== expectedKey) return null;
    off += pad4(keyLen);
    const u32 = (n: number): Uint32Array => {
      const v = new Uint32Array(buf.buffer, off, n);
      off += 4 * n;
      return v;
    };
    const s: Sections = {
      key,
      v4Starts: u32(n4),
      v4Ends: u32(n4),
      v4Recs: u32(n4),
      v6Starts: u32(4 * n6),
      v6Ends: u32(4 * n6),
      v6Recs: u32(n6),
      recAsn: u32(nRec),
      orgOffsets: u32(nRec + 1),
      orgs: Buffer.from(buf.buffer, off, orgLen),
    };
    for (const recs of [s.v4Recs, s.v6Recs]) for (const r of recs) if (r >= nRec) return null;
    let prev = 0;
    for (const o of s.orgOffsets) {
      if (o < prev || o > orgLen) return null;
      prev = o;
    }
    return new AsnIndex(s, total);
  }

  /** The record of the range holding the address, or null. */
  get(ip: ParsedIp): AsnRecord | null {
    const s = this.s;
    if (ip.version === 4) {
      const i = floorIndexV4(s.v4Starts, ip.v4);
      return i >= 0 && ip.v4 <= s.v4Ends[i] ? this.record(s.v4Recs[i]) : null;
    }
    const i = floorIndexV6(s.v6Starts, ip.words);
    return i >= 0 && compareV6(s.v6Ends, i, ip.words) >= 0 ? this.record(s.v6Recs[i]) : null;
  }

  /** Decoded lazily and kept: a few thousand distinct records serve almost all traffic. */
  private record(i: number): AsnRecord {
    let rec = this.records[i];
    if (rec === undefined) {
      const s = this.s;
      const asn = s.recAsn[i];
      const from = s.orgOffsets[i];
      const to = s.orgOffsets[i + 1];
      rec = {
        asn: asn === 0 ? null : asn,
        org: to > from ? s.orgs.toString('utf8', from, to) : null,
      };
      this.records[i] = rec;
    }
    return rec;
  }

  /** Every range in index order, for tests and tools: [version, start, end, record]. */
  *entries(): Generator<readonly [4 | 6, bigint, bigint, AsnRecord]> {
    const s = this.s;
    for (let i = 0; i < s.v4Starts.length; i++)
      yield [4, BigInt(s.v4Starts[i]), BigInt(s.v4Ends[i]), this.record(s.v4Recs[i])];
    for (let i = 0; i < s.v6Recs.length; i++)
      yield [6, wordsAt(s.v6Starts, i), wordsAt(s.v6Ends, i), this.record(s.v6Recs[i])];
  }
}

function wordsAt(arr: Uint32Array, i: number): bigint {
  const o = i * 4;
  return (
    (BigInt(arr[o]) << 96n) |
    (BigInt(arr[o + 1]) << 64n) |
    (BigInt(arr[o + 2]) << 32n) |
    BigInt(arr[o + 3])
  );
}

/** Input of serializeAsnIndex: ranges in any order plus the record table. */
export interface AsnIndexInput {
  readonly v4Starts: Uint32Array;
  readonly v4Ends: Uint32Array;
  readonly v4Recs: Uint32Array;
  readonly v6Starts: Uint32Array;
  readonly v6Ends: Uint32Array;
  readonly v6Recs: Uint32Array;
  readonly recAsn: readonly number[];
  readonly recOrg: readonly string[];
}

/**
 * Writes the binary layout. Ranges are sorted by start, stably (among equal starts the later
 * row stays later and so wins the lookup, as in IpRangeTable); sorted input (the ip-location-db
 * files are) is kept as is.
 */
export function serializeAsnIndex(input: AsnIndexInput, key: string): Buffer {
  const n4 = input.v4Starts.length;
  const n6 = input.v6Recs.length;
  const nRec = input.recAsn.length;
  const keyBytes = Buffer.from(key, 'utf8');
  const orgParts = input.recOrg.map((o) => Buffer.from(o, 'utf8'));
  const orgLen = orgParts.reduce((n, b) => n + b.length, 0);
  const total =
    HEADER_WORDS * 4 +
    pad4(keyBytes.length) +
    12 * n4 +
    36 * n6 +
    4 * nRec +
    4 * (nRec + 1) +
    pad4(orgLen);
  const ab = new ArrayBuffer(total);
  const bytes = Buffer.from(ab);
  const h = new Uint32Array(ab, 0, HEADER_WORDS);
  h.set([MAGIC, ASN_INDEX_FORMAT, n4, n6, nRec, orgLen, keyBytes.length]);
  let off = HEADER_WORDS * 4;
  keyBytes.copy(bytes, off);
  off += pad4(keyBytes.length);
  const u32 = (n: number): Uint32Array => {
    const v = new Uint32Array(ab, off, n);
    off += 4 * n;
    return v;
  };
  const p4 = order(n4, (a, b) => input.v4Starts[a] - input.v4Starts[b]);
  const s4 = u32(n4);
  const e4 = u32(n4);
  const r4 = u32(n4);
  for (let i = 0; i < n4; i++) {
    const j = p4 === null ? i : p4[i];
    s4[i] = input.v4Starts[j];
    e4[i] = input.v4Ends[j];
    r4[i] = input.v4Recs[j];
  }
  const p6 = order(n6, (a, b) => compareV6(input.v6Starts, a, wordsOf(input.v6Starts, b)));
  const s6 = u32(4 * n6);
  const e6 = u32(4 * n6);
  const r6 = u32(n6);
  for (let i = 0; i < n6; i++) {
    const j = p6 === null ? i : p6[i];
    s6.set(input.v6Starts.subarray(j * 4, j * 4 + 4), i * 4);
    e6.set(input.v6Ends.subarray(j * 4, j * 4 + 4), i * 4);
    r6[i] = input.v6Recs[j];
  }
  u32(nRec).set(input.recAsn);
  const offsets = u32(nRec + 1);
  let orgOff = off;
  let pos = 0;
  for (let i = 0; i < nRec; i++) {
    offsets[i] = pos;
    orgParts[i].copy(bytes, orgOff);
    orgOff += orgParts[i].length;
    pos += orgParts[i].length;
  }
  offsets[nRec] = pos;
  return bytes;
}

function wordsOf(arr: Uint32Array, i: number): [number, number, number, number] {
  return [arr[i * 4], arr[i * 4 + 1], arr[i * 4 + 2], arr[i * 4 + 3]];
}

/** Stable sort permutation, or null when already sorted. */
function order(n: number, cmp: (a: number, b: number) => number): number[] | null {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (cmp(i - 1, i) > 0) sorted = false;
  if (sorted) return null;
  const idx = Array.from({ length: n }, (_, i) => i);
  return idx.sort((a, b) => cmp(a, b) || a - b);
}
