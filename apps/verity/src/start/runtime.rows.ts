import type { AppConfig } from '@verity/config';
import type { CanaryReport, DataSourceStatus } from '@verity/integrations';

const DAY_MS = 86_400_000;

/**
 * The banner's one line on the open-data lists and databases: how many are in use, how old the
 * oldest is (on a fresh or offline install, the copies bundled with Verity), and what refreshes
 * them. /readyz has each one's detail.
 */
export function dataListsRow(sources: readonly DataSourceStatus[], config: AppConfig): string {
  const inUse = sources.filter((s) => s.status === 'loaded' || s.status === 'stale');
  const times = inUse
    .map((s) => (s.data_time === null ? null : Date.parse(s.data_time)))
    .filter((t): t is number => t !== null && !Number.isNaN(t));
  const oldest = times.length > 0 ? Math.min(...times) : null;
  const age =
    oldest === null
      ? ''
      : `, the oldest from ${new Date(oldest).toISOString().slice(0, 10)} (${Math.floor((Date.now() - oldest) / DAY_MS)} days)`;
  const missing = sources.length - inUse.length;
  const refresh =
    config.DATA_REFRESH_INTERVAL === 'off'
      ? '`verity data update` refreshes them'
      : 'refreshed in the background';
  return `${inUse.length} of ${sources.length} in use${age}${missing > 0 ? `, ${missing} missing` : ''}; ${refresh}`;
}

/** The banner's DNS row, and when the resolvers fail their canary a paragraph saying what that means. */
export function resolverRows(
  report: CanaryReport,
  config: AppConfig,
): { row: string; block: string[] | null } {
  const servers =
    config.DNS_SERVERS.length > 0
      ? config.DNS_SERVERS.map((s) => `${s.host}:${s.port}`).join(', ')
      : 'the system resolvers (/etc/resolv.conf)';
  const asked = report.domains.map((d) => d.domain).join(', ');
  switch (report.state) {
    case 'healthy':
      return { row: `${servers}: working`, block: null };
    case 'unchecked':
      return {
        row:
          config.DNS_CANARY_DOMAINS.length === 0
            ? `${servers} (not checked: DNS_CANARY_DOMAINS=off)`
            : `${servers}: still checking (see /readyz)`,
        block: null,
      };
    case 'denies_domains':
    case 'unreachable':
      return {
        row: `${servers}: NOT WORKING (see below)`,
        block: wrap(
          (report.state === 'denies_domains'
            ? `DNS: ${servers} answer "no such domain" for ${asked}, which certainly receive mail.`
            : `DNS: ${servers} gave no answer for ${asked}.`) +
            ' Until they work, email domains cannot be checked: answers say `unknown`, not' +
            ' `undeliverable`. Set DNS_SERVERS to a working resolver (e.g. DNS_SERVERS=1.1.1.1);' +
            ' /readyz shows the check.',
        ),
      };
  }
}

/** `text` as lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width = 88): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}
