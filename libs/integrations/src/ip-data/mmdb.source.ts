import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import { UpstreamUnavailableError } from '@verity/common';
import type { ParsedIp } from '@verity/validation';
import { freshness, type DataSourceStatus } from './data-source.status';

interface OpenReader {
  readonly reader: Reader<Response>;
  readonly ipVersion: number;
  readonly path: string;
}

/** Decoded-record cache size per reader (keyed by data offset, so it holds distinct records). */
const RECORD_CACHE = 20_000;

/**
 * One MMDB database: a single .mmdb file (MaxMind) or a folder of them (ip-location-db
 * ships IPv4 and IPv6 as two files). Readers are swapped whole on reload, so lookups in
 * flight never see a half-loaded database.
 */
export class MmdbSource {
  private readers: readonly OpenReader[] = [];
  private loadedAt: Date | null = null;
  private buildTime: Date | null = null;
  private mtime: Date | null = null;
  private nodes: number | null = null;
  private error: string | null = null;
  private missing = false;

  constructor(
    readonly id: string,
    readonly kind: 'city-db' | 'asn-db' | 'anonymous-db',
    readonly path: string,
    private readonly required: boolean,
    private readonly maxAgeMs: number,
  ) {}

  /** (Re)opens the database; on failure keeps the previous readers if any and records the error. */
  async load(): Promise<void> {
    try {
      const info = await stat(this.path);
      const files = info.isDirectory()
        ? (await readdir(this.path))
            .filter((f) => f.endsWith('.mmdb'))
            .sort()
            .map((f) => join(this.path, f))
        : [this.path];
      if (files.length === 0) throw new Error('no .mmdb file in folder');
      const opened: OpenReader[] = [];
      let newest = 0;
      for (const file of files) {
        const reader = await maxmind.open<Response>(file, { cache: { max: RECORD_CACHE } });
        opened.push({ reader, ipVersion: reader.metadata.ipVersion, path: file });
        newest = Math.max(newest, (await stat(file)).mtimeMs);
      }
      // IPv4-only files first so an IPv4 lookup hits them before any IPv6 file.
      opened.sort((a, b) => a.ipVersion - b.ipVersion);
      this.readers = opened;
      this.mtime = new Date(newest);
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

  /** Newest mtime of the files, for change polling. */
  async currentMtime(): Promise<number | null> {
    try {
      return (await stat(this.readers[0]?.path ?? this.path)).mtimeMs;
    } catch {
      return null;
    }
  }

  /** Last mtime seen at load. */
  get loadedMtime(): number | null {
    return this.mtime?.getTime() ?? null;
  }

  /** Record for the address, or null. Throws UpstreamUnavailableError when nothing is loaded. */
  get(ip: ParsedIp): unknown {
    const readers = this.readers;
    if (readers.length === 0) throw new UpstreamUnavailableError('IP database is unavailable');
    for (const r of readers) {
      // An IPv4-only tree would misread the first 32 bits of an IPv6 address.
      if (ip.version === 6 && r.ipVersion === 4) continue;
      let rec: unknown;
      try {
        rec = r.reader.get(ip.text);
      } catch (e) {
        // A corrupt tree or data section: the database cannot answer, which is a 503, not a 500.
        this.error = `lookup failed: ${e instanceof Error ? e.message : String(e)}`;
        throw new UpstreamUnavailableError('IP database is unavailable');
      }
      if (rec !== null) return rec;
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
      file_mtime: this.mtime?.toISOString() ?? null,
      age_seconds: loaded ? f.age_seconds : null,
      error: this.error,
    };
  }
}
