import { bigIntToWords, parseBounds } from '@verity/validation';
import type { AsnIndexInput } from './asn-index';

const V4_MAX = 0xffffffff;
const TWO32 = 4294967296;
/** Rows parsed between two yields to the event loop while building from CSV. */
const ROWS_PER_SLICE = 10_000;

/** Growable uint32 column. */
class U32Column {
  private arr = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.arr.length) {
      const next = new Uint32Array(this.arr.length * 2);
      next.set(this.arr);
      this.arr = next;
    }
    this.arr[this.length++] = v;
  }
  view(): Uint32Array {
    return this.arr.subarray(0, this.length);
  }
}

/**
 * Parses ip-location-db ASN CSV files (`first,last,asn,org`, addresses as text or, in the
 * `*-num.csv` variants, as decimal integers) straight into uint32 columns: no per-row range
 * objects, no BigInt for the 39-digit IPv6 integers (they are split into four 32-bit words by
 * long multiplication). Rows that are not a valid range (headers, first > last) are skipped.
 */
export class AsnCsvParser {
  private readonly v4s = new U32Column();
  private readonly v4e = new U32Column();
  private readonly v4r = new U32Column();
  private readonly v6s = new U32Column();
  private readonly v6e = new U32Column();
  private readonly v6r = new U32Column();
  private readonly recAsn: number[] = [];
  private readonly recOrg: string[] = [];
  /** org → record index of its first ASN; most orgs have exactly one. */
  private readonly byOrg = new Map<string, number>();
  /** `asn\0org` → record index, for the orgs seen with several ASNs. */
  private readonly byPair = new Map<string, number>();
  private readonly w = [0, 0, 0, 0, 0, 0, 0, 0];
  rows = 0;
  skipped = 0;

  /** Parses one file's text; yields to the event loop every ROWS_PER_SLICE rows. */
  async add(text: string): Promise<void> {
    let pos = 0;
    while (pos < text.length) {
      pos = this.addSlice(text, pos, ROWS_PER_SLICE);
      if (pos < text.length) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Parses up to `maxRows` lines from `pos`; returns where it stopped. */
  addSlice(text: string, pos: number, maxRows: number): number {
    const len = text.length;
    for (let n = 0; n < maxRows && pos < len; n++) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0) nl = len;
      const end = text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(text, pos, end);
      pos = nl + 1;
    }
    return pos;
  }

  /** The columns gathered so far. */
  result(): AsnIndexInput {
    return {
      v4Starts: this.v4s.view(),
      v4Ends: this.v4e.view(),
      v4Recs: this.v4r.view(),
      v6Starts: this.v6s.view(),
      v6Ends: this.v6e.view(),
      v6Recs: this.v6r.view(),
      recAsn: this.recAsn,
      recOrg: this.recOrg,
    };
  }

  private line(text: string, pos: number, end: number): void {
    const c1 = text.indexOf(',', pos);
    if (c1 < 0 || c1 >= end) return this.skip(pos, end);
    const c2 = text.indexOf(',', c1 + 1);
    if (c2 < 0 || c2 >= end) return this.skip(pos, end);
    let c3 = text.indexOf(',', c2 + 1);
    if (c3 >= end) c3 = -1;
    const family = this.range(text, pos, c1, c1 + 1, c2);
    if (family === 0) return this.skip(pos, end);
    const rec = this.recordOf(
      text.slice(c2 + 1, c3 < 0 ? end : c3),
      c3 < 0 ? '' : text.slice(c3 + 1, end),
    );
    if (family === 4) this.v4r.push(rec);
    else this.v6r.push(rec);
    this.rows++;
  }

  private skip(pos: number, end: number): void {
    if (end > pos) this.skipped++;
  }

  /** Pushes the range's bounds; returns its family, or 0 when the row is not a valid range. */
  private range(text: string, s0: number, s1: number, e0: number, e1: number): 0 | 4 | 6 {
    const w = this.w;
    if (digitsOnly(text, s0, s1) && digitsOnly(text, e0, e1)) {
      if (s1 - s0 <= 10 && e1 - e0 <= 10) {
        const s = decimal(text, s0, s1);
        const e = decimal(text, e0, e1);
        if (e <= V4_MAX) {
          if (s > e) return 0;
          this.v4s.push(s);
          this.v4e.push(e);
          return 4;
        }
      }
      if (!decimalWords(text, s0, s1, w, 0) || !decimalWords(text, e0, e1, w, 4)) return 0;
    } else {
      const r = parseBounds(text.slice(s0, s1), text.slice(e0, e1));
      if (r === null) return 0;
      if (r.version === 4) {
        this.v4s.push(r.start);
        this.v4e.push(r.end);
        return 4;
      }
      const a = bigIntToWords(r.start);
      const b = bigIntToWords(r.end);
      for (let k = 0; k < 4; k++) {
        w[k] = a[k];
        w[k + 4] = b[k];
      }
    }
    const cmp = w[0] - w[4] || w[1] - w[5] || w[2] - w[6] || w[3] - w[7];
    if (cmp > 0) return 0;
    for (let k = 0; k < 4; k++) this.v6s.push(w[k]);
    for (let k = 4; k < 8; k++) this.v6e.push(w[k]);
    return 6;
  }

  private recordOf(asnText: string, orgRaw: string): number {
    let org = orgRaw;
    if (org.length >= 2 && org.charCodeAt(0) === 34 && org.charCodeAt(org.length - 1) === 34)
      org = org.slice(1, -1).replace(/""/g, '"');
    const n = Number(asnText);
    const asn = asnText !== '' && Number.isInteger(n) && n > 0 && n <= V4_MAX ? n : 0;
    const first = this.byOrg.get(org);
    if (first !== undefined && this.recAsn[first] === asn) return first;
    const pairKey = `${asn}\u0000${org}`;
    if (first !== undefined) {
      const known = this.byPair.get(pairKey);
      if (known !== undefined) return known;
    }
    const idx = this.recAsn.length;
    this.recAsn.push(asn);
    this.recOrg.push(org);
    if (first === undefined) this.byOrg.set(org, idx);
    else this.byPair.set(pairKey, idx);
    return idx;
  }
}

function digitsOnly(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Decimal digits to a number; exact up to 2^53, used here for at most 10 digits. */
function decimal(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (text.charCodeAt(i) - 48);
  return v;
}

/** Decimal digits to four 32-bit words at out[at..at+3]; false when the value exceeds 128 bits. */
function decimalWords(text: string, from: number, to: number, out: number[], at: number): boolean {
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  for (let i = from; i < to; i++) {
    // Each word times 10 plus carry stays below 2^36: exact in a double.
    let x = w3 * 10 + (text.charCodeAt(i) - 48);
    w3 = x % TWO32;
    let carry = (x - w3) / TWO32;
    x = w2 * 10 + carry;
    w2 = x % TWO32;
    carry = (x - w2) / TWO32;
    x = w1 * 10 + carry;
    w1 = x % TWO32;
    carry = (x - w1) / TWO32;
    x = w0 * 10 + carry;
    w0 = x % TWO32;
    if (x >= TWO32) return false;
  }
  out[at] = w0;
  out[at + 1] = w1;
  out[at + 2] = w2;
  out[at + 3] = w3;
  return true;
}
