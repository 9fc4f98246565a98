import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Reader, type Response } from 'maxmind';
import { UpstreamUnavailableError } from '@verity/common';
import type { ParsedIp } from '@verity/validation';
import { freshness, type DataSourceStatus } from './data-source.status';
import { MMDB_NOT_FOUND, MmdbTree } from './mmdb.tree';
import { newestMtimeMs } from './newest-mtime';

/** mmdb-lib's Reader decodes a record value with this (TS-private) method; see openReader. */
type DecodePointer = (pointer: number) => unknown;

interface OpenReader<T> {
  readonly reader: Reader<Response>;
  /** Direct tree walk + decoder, or null to fall back to reader.get(text). */
  readonly tree: MmdbTree | null;
  readonly decode: DecodePointer | null;
  /** Mapped records by record value; a reload opens a new reader, so it never goes stale. */
  readonly mapped: Map<number, T | null>;
  readonly ipVersion: number;
  readonly path: string;
}

/**
 * Bound on mapped records cached per file. Keys are distinct data records (GeoLite2 City has
 * ~150k), not addresses, so the bound is rarely reached; when it is the map is simply cleared.
 */
const MAPPED_CACHE_MAX = 250_000;

/**
 * One MMDB database: a single .mmdb file (MaxMind) or a folder of them (ip-location-db
 * ships IPv4 and IPv6 as two files). Each record is mapped once by `map` (e.g. a GeoLite2
 * record to { country, city }) and the mapped value cached by its data-section pointer, so a
 * lookup is a tree walk on the parsed address plus a Map hit. Readers are swapped whole on
 * reload, so lookups in flight never see a half-loaded database.
 */
export class MmdbSource<T> {
  private readers: readonly OpenReader<T>[] = [];
  private loadedAt: Date | null = null;
  private buildTime: Date | null = null;
  /** Newest file mtime at load, exact (a Date would round away the fraction of mtimeMs). */
  private mtimeMs: number | null = null;
  private nodes: number | null = null;
  private error: string | null = null;
  private missing = false;

  constructor(
    readonly id: string,
    readonly kind: 'city-db' | 'asn-db' | 'anonymous-db',
    readonly path: string,
    private readonly required: boolean,
    private readonly maxAgeMs: number,
    private readonly map: (record: unknown) => T | null,
  ) {}

  /** (Re)opens the database; on failure keeps the previous readers if any and records the error. */
  async load(): Promise<void> {
    try {
      const files = await mmdbFiles(this.path);
      const newest = await newestMtimeMs(files);
      const opened: OpenReader<T>[] = [];
      for (const file of files) opened.push(openReader<T>(file, await readFile(file)));
      // IPv4-only files first so an IPv4 lookup hits them before any IPv6 file.
      opened.sort((a, b) => a.ipVersion - b.ipVersion);
      this.readers = opened;
      this.mtimeMs = newest;
      this.buildTime = new Date(
        Math.max(...opened.map((o) => o.reader.metadata.buildEpoch.getTime())),
      );
      this.nodes = opened.reduce((n, o) => n + o.reader.metadata.nodeCount, 0);
      this.loadedAt = new Date();
      this.error = null;
      this.missing = false;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.missing = code === 'ENOENT';
      this.error = this.missing ? null : e instanceof Error ? e.message : String(e);
    }
  }

  /** Newest mtime of the files load() would open, for change polling. */
  async currentMtime(): Promise<number | null> {
    try {
      return await newestMtimeMs(await mmdbFiles(this.path));
    } catch {
      return null;
    }
  }

  /** Newest mtime seen at load, compared with currentMtime() by the engine's poll. */
  get loadedMtime(): number | null {
    return this.mtimeMs;
  }

  /** Mapped record for the address, or null. Throws UpstreamUnavailableError when nothing is loaded. */
  get(ip: ParsedIp): T | null {
    const readers = this.readers;
    if (readers.length === 0)
      throw new UpstreamUnavailableError('IP database is unavailable', 'ip_data');
    for (let i = 0; i < readers.length; i++) {
      const r = readers[i];
      // An IPv4-only tree would misread the first 32 bits of an IPv6 address.
      if (ip.version === 6 && r.ipVersion === 4) continue;
      try {
        if (r.tree === null || r.decode === null) {
          const rec: unknown = r.reader.get(ip.text);
          if (rec !== null) return this.map(rec);
          continue;
        }
        const pointer = ip.version === 4 ? r.tree.findV4(ip.v4) : r.tree.findV6(ip.words);
        if (pointer === MMDB_NOT_FOUND) continue;
        const hit = r.mapped.get(pointer);
        if (hit !== undefined) return hit;
        const value = this.map(r.decode(pointer));
        if (r.mapped.size >= MAPPED_CACHE_MAX) r.mapped.clear();
        r.mapped.set(pointer, value);
        return value;
      } catch (e) {
        // A corrupt tree or data section: the database cannot answer, which is a 503, not a 500.
        this.error = `lookup failed: ${e instanceof Error ? e.message : String(e)}`;
        throw new UpstreamUnavailableError('IP database is unavailable', 'ip_data');
      }
    }
    return null;
  }

  /** Status for /readyz. */
  status(now = Date.now()): DataSourceStatus {
    const loaded = this.readers.length > 0;
    const f = freshness(this.buildTime, this.maxAgeMs, now);
    return {
      id: this.id,
      kind: this.kind,
      status: !loaded ? (this.missing ? 'missing' : 'error') : f.stale ? 'stale' : 'loaded',
      required: this.required,
      path: this.path,
      entries: loaded ? this.nodes : null,
      loaded_at: this.loadedAt?.toISOString() ?? null,
      data_time: loaded ? (this.buildTime?.toISOString() ?? null) : null,
      file_mtime: this.mtimeMs === null ? null : new Date(this.mtimeMs).toISOString(),
      age_seconds: loaded ? f.age_seconds : null,
      max_age_seconds: Math.round(this.maxAgeMs / 1000),
      error: this.error,
    };
  }
}

/**
 * Opens one file with the maxmind (mmdb-lib) Reader, which validates the metadata and decodes
 * records. The tree walk is ours (MmdbTree); decoding a record value goes through the reader's
 * `resolveDataPointer`, private in its typings but the very method its own get() uses. If a
 * future mmdb-lib drops it, lookups fall back to reader.get(text): slower, same answers.
 */
function openReader<T>(path: string, db: Buffer): OpenReader<T> {
  const reader = new Reader<Response>(db);
  const { metadata } = reader;
  const resolve = (reader as unknown as { resolveDataPointer?: unknown }).resolveDataPointer;
  const decode = typeof resolve === 'function' ? (resolve as DecodePointer).bind(reader) : null;
  return {
    reader,
    tree: decode === null ? null : new MmdbTree(db, metadata),
    decode,
    mapped: new Map(),
    ipVersion: metadata.ipVersion,
    path,
  };
}

/** The .mmdb files of a path: the file itself, or a folder's .mmdb files in name order. */
async function mmdbFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const files = (await readdir(path))
    .filter((f) => f.endsWith('.mmdb'))
    .sort()
    .map((f) => join(path, f));
  if (files.length === 0) throw new Error('no .mmdb file in folder');
  return files;
}
