import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UpstreamUnavailableError } from '@verity/common';
import {
  IpRangeTable,
  parseBounds,
  type AsnRecord,
  type IpRange,
  type ParsedIp,
} from '@verity/validation';
import { freshness, type DataSourceStatus } from './data-source.status';

/**
 * ip-location-db ASN CSV (`first,last,asn,org`; Route Views + RIR + DB-IP data, CC BY 4.0),
 * loaded into a sorted range table. In a folder, the `*-num.csv` variants (addresses as
 * decimal integers) are preferred: they parse several times faster than address text.
 */
export class AsnCsvSource {
  private table: IpRangeTable<AsnRecord> | null = null;
  private loadedAt: Date | null = null;
  private mtime: Date | null = null;
  private error: string | null = null;
  private missing = false;

  constructor(
    readonly path: string,
    private readonly maxAgeMs: number,
  ) {}

  async load(): Promise<void> {
    try {
      const files = await csvFiles(this.path);
      const orgs = new Map<string, string>();
      const entries: [IpRange, AsnRecord][] = [];
      let newest = 0;
      for (const file of files) {
        const text = await readFile(file, 'utf8');
        newest = Math.max(newest, (await stat(file)).mtimeMs);
        parseAsnCsv(text, orgs, entries);
      }
      if (entries.length === 0) throw new Error('no ASN rows parsed');
      this.table = IpRangeTable.from(entries);
      this.mtime = new Date(newest);
      this.loadedAt = new Date();
      this.error = null;
      this.missing = false;
    } catch (e) {
      this.missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      this.error = this.missing ? null : e instanceof Error ? e.message : String(e);
    }
  }

  async currentMtime(): Promise<number | null> {
    try {
      const files = await csvFiles(this.path);
      let newest = 0;
      for (const f of files) newest = Math.max(newest, (await stat(f)).mtimeMs);
      return newest;
    } catch {
      return null;
    }
  }

  get loadedMtime(): number | null {
    return this.mtime?.getTime() ?? null;
  }

  /** Record for the address, or null. Throws UpstreamUnavailableError when nothing is loaded. */
  get(ip: ParsedIp): AsnRecord | null {
    const table = this.table;
    if (table === null) throw new UpstreamUnavailableError('IP database is unavailable');
    return table.get(ip);
  }

  status(now = Date.now()): DataSourceStatus {
    const loaded = this.table !== null;
    // npm tarballs carry a fixed 1985 mtime, so the file time says nothing about data age here.
    const f = freshness(null, this.maxAgeMs, now);
    return {
      id: 'asn-db',
      kind: 'asn-db',
      status: !loaded ? (this.missing ? 'missing' : 'error') : 'loaded',
      required: true,
      path: this.path,
      entries: this.table?.size ?? null,
      loaded_at: this.loadedAt?.toISOString() ?? null,
      data_time: null,
      file_mtime: this.mtime?.toISOString() ?? null,
      age_seconds: f.age_seconds,
      error: this.error,
    };
  }
}

async function csvFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const all = (await readdir(path)).filter((f) => f.endsWith('.csv')).sort();
  const num = all.filter((f) => f.endsWith('-num.csv'));
  const chosen = num.length > 0 ? num : all;
  if (chosen.length === 0) throw new Error('no .csv file in folder');
  return chosen.map((f) => join(path, f));
}

/** Appends the rows of one CSV; org names are interned (a few thousand distinct across ~500k rows). */
export function parseAsnCsv(
  text: string,
  orgs: Map<string, string>,
  out: [IpRange, AsnRecord][],
): void {
  const records = new Map<string, AsnRecord>();
  let pos = 0;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const line = text.charCodeAt(nl - 1) === 13 ? text.slice(pos, nl - 1) : text.slice(pos, nl);
    pos = nl + 1;
    const c1 = line.indexOf(',');
    const c2 = line.indexOf(',', c1 + 1);
    const c3 = line.indexOf(',', c2 + 1);
    if (c1 < 0 || c2 < 0) continue;
    const range = toRange(line.slice(0, c1), line.slice(c1 + 1, c2));
    if (range === null) continue;
    const asnText = c3 < 0 ? line.slice(c2 + 1) : line.slice(c2 + 1, c3);
    let org = c3 < 0 ? '' : line.slice(c3 + 1);
    if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replace(/""/g, '"');
    const key = `${asnText}\u0000${org}`;
    let rec = records.get(key);
    if (rec === undefined) {
      const interned = orgs.get(org) ?? org;
      orgs.set(org, interned);
      const asn = Number(asnText);
      rec = {
        asn: Number.isInteger(asn) && asn > 0 ? asn : null,
        org: interned === '' ? null : interned,
      };
      records.set(key, rec);
    }
    out.push([range, rec]);
  }
}

const V4_MAX = 0xffffffff;

function toRange(first: string, last: string): IpRange | null {
  if (isDigits(first) && isDigits(last)) {
    // *-num.csv: IPv4 rows fit in a uint32; anything larger is an IPv6 row.
    if (first.length <= 10 && last.length <= 10) {
      const s = Number(first);
      const e = Number(last);
      if (e <= V4_MAX && s <= e) return { version: 4, start: s, end: e };
    }
    const s = BigInt(first);
    const e = BigInt(last);
    return s <= e ? { version: 6, start: s, end: e } : null;
  }
  return parseBounds(first, last);
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
