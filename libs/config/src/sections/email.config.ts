import { isIP } from 'node:net';
import { z } from 'zod';
import { envInt, envList } from '../env-types';

/** One DNS server to query: an IP address and a UDP/TCP port. */
export interface DnsServerAddress {
  host: string;
  port: number;
}

/** Parses `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`; null when malformed. */
export function parseDnsServerAddress(entry: string): DnsServerAddress | null {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return checked(bracketed[1], bracketed[2]);
  if (isIP(entry) !== 0) return { host: entry, port: 53 };
  const colon = entry.lastIndexOf(':');
  if (colon < 0) return null;
  return checked(entry.slice(0, colon), entry.slice(colon + 1));
}

function checked(host: string, port: string | undefined): DnsServerAddress | null {
  if (isIP(host) === 0) return null;
  const p = port === undefined ? 53 : Number(port);
  return Number.isInteger(p) && p >= 1 && p <= 65535 ? { host, port: p } : null;
}

/** Email engine settings (DNS resolvers, operator lists); the SMTP probe's are smtp.config.ts. */
export const emailSchema = z.object({
  /** Comma list of `ip` or `ip:port`; empty means the system resolvers (/etc/resolv.conf). */
  DNS_SERVERS: envList().transform((entries, ctx) => {
    const servers: DnsServerAddress[] = [];
    for (const entry of entries) {
      const server = parseDnsServerAddress(entry);
      if (server === null) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an ip or ip:port` });
        return z.NEVER;
      }
      servers.push(server);
    }
    return servers;
  }),
  /** Per-server wait for a DNS answer before trying the next server. */
  DNS_TIMEOUT_MS: envInt(2_000),
  /** Most DNS answers kept in the LRU cache. */
  DNS_CACHE_SIZE: envInt(10_000),
  /** Upper bound on how long NXDOMAIN / no-data answers are cached (RFC 2308 SOA TTL otherwise). */
  DNS_NEGATIVE_TTL_MS: envInt(60_000),
  /**
   * How long a failed lookup (timeout, SERVFAIL) is remembered, so an outage does not make
   * every call wait DNS_TIMEOUT_MS again (RFC 2308 §7: at most 5 minutes); 0 = never.
   */
  DNS_FAILURE_TTL_MS: envInt(5_000, 0),
  /**
   * Domains that certainly receive mail, asked at start and every DNS_CANARY_INTERVAL_MS: when
   * none resolves, the resolver is reported broken (banner, /readyz, metric) and its "no such
   * domain" answers are not believed; `off` (or empty) turns the canary off.
   */
  DNS_CANARY_DOMAINS: z
    .string()
    .default('gmail.com,outlook.com,yahoo.com')
    .transform((v) =>
      v.trim() === 'off'
        ? []
        : v
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter((s) => s.length > 0),
    ),
  DNS_CANARY_INTERVAL_MS: envInt(300_000, 1_000),
  /** Domains (and their subdomains) never reported disposable. */
  EMAIL_DISPOSABLE_ALLOW: envList(),
  /** Domains (and their subdomains) always reported disposable. */
  EMAIL_DISPOSABLE_DENY: envList(),
});

/** The email section of the validated config (inject it with EMAIL_CONFIG). */
export type EmailConfig = z.infer<typeof emailSchema>;
