import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UpstreamUnavailableError } from '@verity/common';
import type { AsnRecord, ParsedIp } from '@verity/validation';
import { AsnCsvParser } from './asn-csv.parser';
import { AsnIndex, serializeAsnIndex } from './asn-index';
import {
  asnCacheName,
  asnSourceKey,
  readCachedAsnIndex,
  writeCachedAsnIndex,
} from './asn-index.cache';
import { freshness, type DataSourceStatus } from './data-source.status';
import { newestMtimeMs } from './newest-mtime';

/** How the last load got its index: from a cache file, or by parsing the CSV. */
export type AsnIndexOrigin = 'cache' | 'csv';

/**
 * ip-location-db ASN CSV (`first,last,asn,org`; Route Views + RIR + DB-IP data, CC BY 4.0),
 * served from a binary range index (asn-index.ts). Parsing ~500k CSV rows takes seconds, so
 * the index is built once per source version and cached (asn-index.cache.ts); later starts
 * and reloads read it in milliseconds. In a folder, the `*-num.csv` variants (addresses as
 * decimal integers) are preferred: they parse several times faster than address text.
 */
export class AsnCsvSource {
  private index: AsnIndex | null = null;
  private loadedAt: Date | null = null;
  /** Newest CSV mtime at load, exact (a Date would round away the fraction of mtimeMs). */
  private mtimeMs: number | null = null;
  private error: string | null = null;
  private missing = false;
  /** Where the current index came from, for diagnostics and tests. */
  origin: AsnIndexOrigin | null = null;

  /**
   * @param cacheDirs where to look for / write the binary index (see asnCacheDirs); empty
   *   disables caching.
   */
  constructor(
    readonly path: string,
    private readonly maxAgeMs: number,
    private readonly cacheDirs: readonly string[] = [],
  ) {}

  async load(): Promise<void> {
    try {
      const files = await csvFiles(this.path);
      const newest = await newestMtimeMs(files);
      const key = await asnSourceKey(files);
      const name = asnCacheName(this.path);
      const cached = await readCachedAsnIndex(this.cacheDirs, name, key);
      let index: AsnIndex;
      if (cached !== null) {
        index = cached.index;
        this.origin = 'cache';
      } else {
        const parser = new AsnCsvParser();
        for (const file of files) await parser.add(await readFile(file, 'utf8'));
        if (parser.rows === 0) throw new Error('no ASN rows parsed');
        const bytes = serializeAsnIndex(parser.result(), key);
        const built = AsnIndex.fromBytes(bytes, key);
        if (built === null) throw new Error('ASN index failed its own consistency check');
        index = built;
        this.origin = 'csv';
        await writeCachedAsnIndex(this.cacheDirs, name, bytes);
      }
      this.index = index;
      this.mtimeMs = newest;
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
      return await newestMtimeMs(await csvFiles(this.path));
    } catch {
      return null;
    }
  }

  get loadedMtime(): number | null {
    return this.mtimeMs;
  }

  /** Record for the address, or null. Throws UpstreamUnavailableError when nothing is loaded. */
  get(ip: ParsedIp): AsnRecord | null {
    const index = this.index;
    if (index === null) throw new UpstreamUnavailableError('IP database is unavailable', 'ip_data');
    return index.get(ip);
  }

  status(now = Date.now()): DataSourceStatus {
    const loaded = this.index !== null;
    // npm tarballs carry a fixed 1985 mtime, so the file time says nothing about data age here.
    const f = freshness(null, this.maxAgeMs, now);
    return {
      id: 'asn-db',
      kind: 'asn-db',
      status: !loaded ? (this.missing ? 'missing' : 'error') : 'loaded',
      required: true,
      path: this.path,
      entries: this.index?.size ?? null,
      loaded_at: this.loadedAt?.toISOString() ?? null,
      data_time: null,
      file_mtime: this.mtimeMs === null ? null : new Date(this.mtimeMs).toISOString(),
      age_seconds: f.age_seconds,
      max_age_seconds: Math.round(this.maxAgeMs / 1000),
      error: this.error,
    };
  }
}

/** The CSV files of a source path: the file itself, or a folder's `*-num.csv` (else `*.csv`). */
export async function csvFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const all = (await readdir(path)).filter((f) => f.endsWith('.csv')).sort();
  const num = all.filter((f) => f.endsWith('-num.csv'));
  const chosen = num.length > 0 ? num : all;
  if (chosen.length === 0) throw new Error('no .csv file in folder');
  return chosen.map((f) => join(path, f));
}
