/** Health of one IP data source, for /readyz and `verity data status`. */
export interface DataSourceStatus {
  /** Stable id, e.g. `city-db`, `tor-exits`, `x4bnet-vpn-ipv4`. */
  readonly id: string;
  readonly kind:
    'city-db' | 'asn-db' | 'anonymous-db' | 'tor' | 'vpn' | 'proxy' | 'datacenter' | 'blocklist';
  /** loaded: in use and fresh; stale: in use but older than its max age; missing: no file; error: file unreadable/invalid. */
  readonly status: 'loaded' | 'stale' | 'missing' | 'error';
  /** Required sources (city and ASN databases) make lookups fail with 503 when not loaded. */
  readonly required: boolean;
  readonly path: string;
  /** Ranges, records or nodes held; null when nothing is loaded. */
  readonly entries: number | null;
  /** ISO time this process loaded it. */
  readonly loaded_at: string | null;
  /** ISO time of the data: file mtime for lists, build epoch for MMDB files. */
  readonly data_time: string | null;
  readonly file_mtime: string | null;
  readonly age_seconds: number | null;
  /** Expected cadence: older than this the source is `stale`. */
  readonly max_age_seconds: number;
  readonly error: string | null;
}

/** Age and freshness from a data time and a maximum age. */
export function freshness(
  dataTime: Date | null,
  maxAgeMs: number,
  now: number,
): { age_seconds: number | null; stale: boolean } {
  if (dataTime === null) return { age_seconds: null, stale: false };
  const age = Math.max(0, now - dataTime.getTime());
  return { age_seconds: Math.round(age / 1000), stale: age > maxAgeMs };
}
