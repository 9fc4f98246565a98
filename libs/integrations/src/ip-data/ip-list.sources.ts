import type { IpConfig } from '@verity/config';
import type { ListFormat } from './ip-list.parsers';

/** One open-data file: where it lives under IP_DATA_DIR, where `data update` fetches it. */
export interface ListSource {
  readonly id: string;
  readonly kind: 'tor' | 'vpn' | 'proxy' | 'datacenter' | 'blocklist';
  readonly format: ListFormat;
  /** Path relative to the data directory. */
  readonly file: string;
  readonly url: string;
  /**
   * Expected refresh cadence: older than this the list is `stale` (a warning in /readyz and
   * the logs). Unset: IP_DATA_MAX_AGE_HOURS.
   */
  readonly maxAgeMs?: number;
  /** How often the in-service refresh downloads it (DATA_REFRESH_INTERVAL=on). */
  readonly refreshMs: number;
}

const HOUR_MS = 3_600_000;
/** The Tor Project rebuilds its exit list many times a day; a day-old list misses exits. */
const TOR_CADENCE_MS = 24 * HOUR_MS;
/** Refreshed hourly: exits come and go within hours (Tor Metrics publishes the list hourly). */
const TOR_REFRESH_MS = HOUR_MS;
/** Open proxies and abuse blocklists churn within hours. */
const CHURNING_REFRESH_MS = 6 * HOUR_MS;
/** X4BNet rebuilds its lists about daily; cloud providers publish range changes a few times a week. */
const DAILY_REFRESH_MS = 24 * HOUR_MS;

/**
 * The lists in use. Licences: Tor Project bulk exit list (Tor Metrics data, CC0 1.0); X4BNet lists_vpn (MIT, bundled under
 * data/ip/x4bnet); cloud range feeds are fetched from the providers by `data update` only
 * (no licence to redistribute); proxy lists and blocklists are the operator's choice.
 */
export function listSources(config: IpConfig): ListSource[] {
  const x4b = config.IP_X4BNET_URL.replace(/\/+$/, '');
  const sources: ListSource[] = [
    {
      id: 'tor-exits',
      kind: 'tor',
      format: 'lines',
      file: 'tor/torbulkexitlist.txt',
      url: config.IP_TOR_EXIT_URL,
      maxAgeMs: TOR_CADENCE_MS,
      refreshMs: TOR_REFRESH_MS,
    },
    {
      id: 'x4bnet-vpn-ipv4',
      kind: 'vpn',
      format: 'lines',
      file: 'x4bnet/output_vpn_ipv4.txt',
      url: `${x4b}/output/vpn/ipv4.txt`,
      refreshMs: DAILY_REFRESH_MS,
    },
    {
      id: 'x4bnet-vpn-ipv6',
      kind: 'vpn',
      format: 'lines',
      file: 'x4bnet/output_vpn_ipv6.txt',
      url: `${x4b}/output/vpn/ipv6.txt`,
      refreshMs: DAILY_REFRESH_MS,
    },
    {
      id: 'x4bnet-datacenter-ipv4',
      kind: 'datacenter',
      format: 'lines',
      file: 'x4bnet/output_datacenter_ipv4.txt',
      url: `${x4b}/output/datacenter/ipv4.txt`,
      refreshMs: DAILY_REFRESH_MS,
    },
    {
      id: 'x4bnet-datacenter-ipv6',
      kind: 'datacenter',
      format: 'lines',
      file: 'x4bnet/output_datacenter_ipv6.txt',
      url: `${x4b}/output/datacenter/ipv6.txt`,
      refreshMs: DAILY_REFRESH_MS,
    },
    {
      id: 'x4bnet-datacenter-asn',
      kind: 'datacenter',
      format: 'asn',
      file: 'x4bnet/input_datacenter_ASN.txt',
      url: `${x4b}/input/datacenter/ASN.txt`,
      refreshMs: DAILY_REFRESH_MS,
    },
  ];
  for (const url of config.IP_CLOUD_RANGES_URLS) {
    sources.push({
      id: `cloud-${slug(url)}`,
      kind: 'datacenter',
      format: 'cloud-json',
      file: `cloud/${slug(url)}.json`,
      url,
      refreshMs: DAILY_REFRESH_MS,
    });
  }
  for (const url of config.IP_PROXY_LIST_URLS) {
    sources.push({
      id: `proxy-${slug(url)}`,
      kind: 'proxy',
      format: 'lines',
      file: `proxy/${slug(url)}.txt`,
      url,
      refreshMs: CHURNING_REFRESH_MS,
    });
  }
  for (const url of config.IP_BLOCKLIST_URLS) {
    sources.push({
      id: `blocklist-${slug(url)}`,
      kind: 'blocklist',
      format: 'lines',
      file: `blocklist/${slug(url)}.txt`,
      url,
      refreshMs: CHURNING_REFRESH_MS,
    });
  }
  return sources;
}

/** Stable file-safe name for a URL: host plus last path segment. */
function slug(url: string): string {
  const u = new URL(url);
  const last =
    u.pathname
      .split('/')
      .filter((s) => s.length > 0)
      .pop() ?? 'index';
  return `${u.hostname}-${last.replace(/\.[a-z]+$/i, '')}`.replace(/[^a-zA-Z0-9.-]+/g, '_');
}
