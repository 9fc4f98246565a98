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
const KINDS: readonly Kind[] = ['tor', 'vpn', 'proxy', 'datacenter', 'blocklist'];

/**
 * The open-data lists as one IpListSet. Each kind is one merged range set, rebuilt and swapped
 * in whole when a file changes, so a lookup sees either the old or the new data, never a mix.
 * A missing or invalid file contributes nothing and shows in status(); a file that turns
 * invalid on reload keeps its previous good contents.
 */
export class OpenDataLists implements IpListSet {
  private readonly loaded = new Map<string, Loaded>();
  private sets = new Map<Kind, IpRangeSet>();
  private asnSets = new Map<Kind, ReadonlySet<number>>();

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
    const has = (k: Kind): boolean =>
      (this.sets.get(k)?.has(ip) ?? false) ||
      (asn !== null && (this.asnSets.get(k)?.has(asn) ?? false));
    const tor = has('tor');
    const vpn = has('vpn');
    const proxy = has('proxy');
    const datacenter = has('datacenter');
    const blocklisted = has('blocklist');
    return tor || vpn || proxy || datacenter || blocklisted
      ? { tor, vpn, proxy, datacenter, blocklisted }
      : NO_LIST_MATCH;
  }

  status(now = Date.now()): DataSourceStatus[] {
    return this.sources.map((s) => {
      const l = this.loaded.get(s.id);
      const inUse = l !== undefined && l.loadedAt !== null;
      const mtime = l !== undefined && l.mtimeMs !== null ? new Date(l.mtimeMs) : null;
      const f = freshness(mtime, this.maxAgeMs, now);
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
    const sets = new Map<Kind, IpRangeSet>();
    const asnSets = new Map<Kind, ReadonlySet<number>>();
    for (const kind of KINDS) {
      const of = this.sources.filter((s) => s.kind === kind).map((s) => this.loaded.get(s.id));
      sets.set(kind, IpRangeSet.from(of.flatMap((l) => l?.ranges ?? [])));
      asnSets.set(kind, new Set(of.flatMap((l) => l?.asns ?? [])));
    }
    this.sets = sets;
    this.asnSets = asnSets;
  }
}

async function mtimeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}
