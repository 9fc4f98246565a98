import { readdirSync, statSync } from 'node:fs';
import type { AppConfig } from '@verity/config';
import {
  createIpEngine,
  type AnonymousLookup,
  type AsnLookup,
  type GeoLookup,
  type IpEngine,
} from '@verity/validation';
import { AsnCsvSource } from './asn-csv.source';
import { asnCacheDirs } from './asn-index.cache';
import type { DataSourceStatus } from './data-source.status';
import { anonymousFromRecord, asnFromRecord, geoFromRecord } from './ip-record.mapping';
import { bundledDataDir, resolveIpPaths } from './ip-data.paths';
import { seedDataDir } from './ip-data.seed';
import { listSources } from './ip-list.sources';
import { MmdbSource } from './mmdb.source';
import { OpenDataLists } from './open-data.lists';

/** A running IP engine with its data sources. */
export interface IpEngineHandle {
  readonly engine: IpEngine;
  /** Every source with its status, entry count and age (for /readyz). */
  dataStatus(): DataSourceStatus[];
  /** Re-reads every database and list now (changed or not) and swaps them in. */
  reload(): Promise<void>;
  /** Swaps in the files that changed on disk now, as the poller would on its next tick. */
  refreshChanged(): Promise<void>;
  /** Stops the change poller. */
  close(): Promise<void>;
}

/** Options of buildIpEngine. */
export interface BuildIpEngineOptions {
  /** Override IP_DATA_POLL_MS (0 = no polling). */
  readonly pollMs?: number;
  /** Override the bundled snapshot used to seed the data directory (null = do not seed). */
  readonly bundleDir?: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Opens the databases and lists named by the configuration, seeding IP_DATA_DIR from the
 * bundled snapshot on first use. Never throws for missing data: a missing city/ASN database
 * makes lookups throw UpstreamUnavailableError (503) and shows in dataStatus().
 */
export async function buildIpEngine(
  config: AppConfig,
  opts: BuildIpEngineOptions = {},
): Promise<IpEngineHandle> {
  const paths = resolveIpPaths(config);
  await seedDataDir(
    paths.dataDir,
    opts.bundleDir === undefined ? bundledDataDir() : opts.bundleDir,
  );

  const dbMaxAge = config.IP_DB_MAX_AGE_DAYS * DAY_MS;
  const city = new MmdbSource('city-db', 'city-db', paths.cityDb, true, dbMaxAge, geoFromRecord);
  const asnSource = isMmdb(paths.asnDb)
    ? new MmdbSource('asn-db', 'asn-db', paths.asnDb, true, dbMaxAge, asnFromRecord)
    : new AsnCsvSource(paths.asnDb, dbMaxAge, asnCacheDirs(paths.asnDb, paths.dataDir));
  const anon =
    paths.anonymousDb === null
      ? null
      : new MmdbSource(
          'anonymous-db',
          'anonymous-db',
          paths.anonymousDb,
          false,
          dbMaxAge,
          anonymousFromRecord,
        );
  const lists = new OpenDataLists(
    paths.dataDir,
    listSources(config),
    config.IP_DATA_MAX_AGE_HOURS * 3_600_000,
  );

  const dbs = [city, asnSource, ...(anon ? [anon] : [])];
  await Promise.all(dbs.map((d) => d.load()));
  await lists.loadAll();

  // Each source maps and caches its records itself; these adapters only rename the method.
  const geo: GeoLookup = { geo: (ip) => city.get(ip) };
  const asn: AsnLookup = { asn: (ip) => asnSource.get(ip) };
  const anonymous: AnonymousLookup | undefined = anon
    ? { anonymous: (ip) => anon.get(ip) }
    : undefined;
  const engine = createIpEngine({ geo, asn, anonymous, lists });

  // Poll mtimes rather than fs.watch: recursive watching is not portable and a rename from
  // `verity data update` in another process must be seen too.
  let polling: Promise<void> | null = null;
  const poll = async (): Promise<void> => {
    for (const d of dbs) {
      const m = await d.currentMtime();
      if (m !== null && m !== d.loadedMtime) await d.load();
    }
    await lists.refreshChanged();
  };
  const pollMs = opts.pollMs ?? config.IP_DATA_POLL_MS;
  const timer =
    pollMs > 0
      ? setInterval(() => {
          polling ??= poll()
            .catch(() => undefined)
            .finally(() => {
              polling = null;
            });
        }, pollMs)
      : null;
  timer?.unref();

  return {
    engine,
    dataStatus: () => {
      const now = Date.now();
      return [...dbs.map((d) => d.status(now)), ...lists.status(now)];
    },
    refreshChanged: poll,
    reload: async () => {
      await Promise.all(dbs.map((d) => d.load()));
      await lists.loadAll();
    },
    close: async () => {
      if (timer) clearInterval(timer);
      await polling;
    },
  };
}

function isMmdb(path: string): boolean {
  try {
    if (path.endsWith('.mmdb')) return true;
    return statSync(path).isDirectory() && readdirSync(path).some((f) => f.endsWith('.mmdb'));
  } catch {
    return false;
  }
}
