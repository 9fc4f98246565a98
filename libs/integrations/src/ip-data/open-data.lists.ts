import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  IpRangeSet,
  NO_LIST_MATCH,
  type IpListSet,
  type IpRange,
  type ListMatch,
  type ParsedIp,
} from '@verity/validation';
import type { IpListEvidence } from '@verity/contracts';
import { freshness, type DataSourceStatus } from './data-source.status';
import { parseList, validateList } from './ip-list.parsers';
import type { ListSource } from './ip-list.sources';

interface Loaded {
  ranges: IpRange[];
  asns: number[];
  loadedAt: Date | null;
  mtimeMs: number | null;
  error: string | null;
  missing: boolean;
}

type Kind = ListSource['kind'];

/**
 * The open-data lists as one IpListSet. Each kind is one merged range set, rebuilt and swapped
 * in whole when a file changes, so a lookup sees either the old or the new data, never a mix.
 * A missing or invalid file contributes nothing and shows in status(); a file that turns
 * invalid on reload keeps its previous good contents.
 */
export class OpenDataLists implements IpListSet {
  private readonly loaded = new Map<string, Loaded>();
  private sets: KindSets = EMPTY_SETS;
  /** One set per source, built on the first explain after a rebuild (the hot path never reads them). */
  private perSource: Map<string, KindSet> | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly sources: readonly ListSource[],
    private readonly maxAgeMs: number,
  ) {}

  /** Loads every file. */
  async loadAll(): Promise<void> {
    for (const s of this.sources) await this.loadOne(s);
    this.rebuild();
  }

  /** Reloads the files whose mtime changed (or appeared/vanished); true if anything changed. */
  async refreshChanged(): Promise<boolean> {
    let changed = false;
    for (const s of this.sources) {
      const mtime = await mtimeOf(join(this.dataDir, s.file));
      if (mtime !== (this.loaded.get(s.id)?.mtimeMs ?? null)) {
        await this.loadOne(s);
        changed = true;
      }
    }
    if (changed) this.rebuild();
    return changed;
  }

  match(ip: ParsedIp, asn: number | null): ListMatch {
    const k = this.sets;
    const tor = hit(k.tor, ip, asn);
    const vpn = hit(k.vpn, ip, asn);
    const proxy = hit(k.proxy, ip, asn);
    const datacenter = hit(k.datacenter, ip, asn);
    const blocklisted = hit(k.blocklist, ip, asn);
    return tor || vpn || proxy || datacenter || blocklisted
      ? { tor, vpn, proxy, datacenter, blocklisted }
      : NO_LIST_MATCH;
  }

  evidence(ip: ParsedIp, asn: number | null, now = Date.now()): IpListEvidence[] {
    this.perSource ??= new Map(
      this.sources.map((s) => {
        const l = this.loaded.get(s.id);
        return [s.id, kindSetOf(l?.ranges ?? [], l?.asns ?? [])];
      }),
    );
    const sets = this.perSource;
    return this.status(now).map((st, i) => {
      const usable = st.status === 'loaded' || st.status === 'stale';
      const set = sets.get(this.sources[i].id);
      return {
        kind: this.sources[i].kind,
        source: st.id,
        status: st.status,
        age_seconds: st.age_seconds,
        matched: usable && set !== undefined && hit(set, ip, asn),
      };
    });
  }

  status(now = Date.now()): DataSourceStatus[] {
    return this.sources.map((s) => {
      const l = this.loaded.get(s.id);
      const inUse = l !== undefined && l.loadedAt !== null;
      const mtime = l !== undefined && l.mtimeMs !== null ? new Date(l.mtimeMs) : null;
      const maxAgeMs = s.maxAgeMs ?? this.maxAgeMs;
      const f = freshness(mtime, maxAgeMs, now);
      return {
        id: s.id,
        kind: s.kind,
        status: !inUse
          ? l?.missing !== false
            ? 'missing'
            : 'error'
          : f.stale
            ? 'stale'
            : 'loaded',
        required: false,
        path: join(this.dataDir, s.file),
        entries: inUse ? l.ranges.length + l.asns.length : null,
        loaded_at: l?.loadedAt?.toISOString() ?? null,
        data_time: mtime?.toISOString() ?? null,
        file_mtime: mtime?.toISOString() ?? null,
        age_seconds: f.age_seconds,
        max_age_seconds: Math.round(maxAgeMs / 1000),
        error: l?.error ?? null,
      };
    });
  }

  private async loadOne(s: ListSource): Promise<void> {
    const path = join(this.dataDir, s.file);
    const prev = this.loaded.get(s.id);
    try {
      const mtimeMs = (await stat(path)).mtimeMs;
      const parsed = parseList(s.format, await readFile(path, 'utf8'));
      const problem = validateList(parsed);
      if (problem !== null) throw new Error(problem);
      this.loaded.set(s.id, {
        ranges: parsed.ranges,
        asns: parsed.asns,
        loadedAt: new Date(),
        mtimeMs,
        error: null,
        missing: false,
      });
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      const error = missing ? null : e instanceof Error ? e.message : String(e);
      // Keep the last good data if there was some; remember the mtime so we do not retry each poll.
      this.loaded.set(s.id, {
        ranges: missing ? [] : (prev?.ranges ?? []),
        asns: missing ? [] : (prev?.asns ?? []),
        loadedAt: missing ? null : (prev?.loadedAt ?? null),
        mtimeMs: await mtimeOf(path),
        error,
        missing,
      });
    }
  }

  private rebuild(): void {
    const build = (kind: Kind): KindSet => {
      const of = this.sources.filter((s) => s.kind === kind).map((s) => this.loaded.get(s.id));
      return kindSetOf(
        of.flatMap((l) => l?.ranges ?? []),
        of.flatMap((l) => l?.asns ?? []),
      );
    };
    this.perSource = null;
    // One swap of a plain object: a lookup reads either the old or the new sets, never a mix.
    this.sets = {
      tor: build('tor'),
      vpn: build('vpn'),
      proxy: build('proxy'),
      datacenter: build('datacenter'),
      blocklist: build('blocklist'),
    };
  }
}

/** One kind's ranges and ASNs (null when the kind has no ASN list, to skip the Set probe). */
interface KindSet {
  readonly ranges: IpRangeSet;
  readonly asns: ReadonlySet<number> | null;
}
type KindSets = Readonly<Record<Kind, KindSet>>;

const EMPTY_SET: KindSet = { ranges: IpRangeSet.from([]), asns: null };
const EMPTY_SETS: KindSets = {
  tor: EMPTY_SET,
  vpn: EMPTY_SET,
  proxy: EMPTY_SET,
  datacenter: EMPTY_SET,
  blocklist: EMPTY_SET,
};

function kindSetOf(ranges: IpRange[], asns: number[]): KindSet {
  const set = new Set(asns);
  return { ranges: IpRangeSet.from(ranges), asns: set.size > 0 ? set : null };
}

function hit(k: KindSet, ip: ParsedIp, asn: number | null): boolean {
  return k.ranges.has(ip) || (asn !== null && k.asns !== null && k.asns.has(asn));
}

async function mtimeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}
