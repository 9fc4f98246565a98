import type { AppConfig } from '@verity/config';
import { createEmailEngine, loadBundledEmailLists, type EmailEngine } from '@verity/validation';
import { attachSmtpProbe, buildSmtpProbe } from '../smtp/smtp.factory';
import { CachingDnsResolver } from './caching.dns-resolver';
import { DnsCanary } from './dns.canary';
import { DnsMxResolver } from './dns.mx-resolver';
import type { DnsEvents } from './dns.types';
import { systemDnsServers } from './system.dns-servers';
import { UdpDnsTransport } from './udp.dns-transport';

/** The email engine with its adapters, and how to release them. */
export interface BuiltEmailEngine {
  engine: EmailEngine;
  /** The resolvers' health check (DNS_CANARY_DOMAINS); started by the caller. */
  canary: DnsCanary;
  close(): Promise<void>;
}

/**
 * Builds the email engine from configuration: DNS over DNS_SERVERS (or the system resolvers),
 * bundled lists plus operator overrides, and the SMTP probe unless EMAIL_SMTP_PROBE=off.
 */
export function buildEmailEngine(config: AppConfig, events?: DnsEvents): BuiltEmailEngine {
  const servers = config.DNS_SERVERS.length > 0 ? config.DNS_SERVERS : systemDnsServers();
  const transport = new UdpDnsTransport(servers, config.DNS_TIMEOUT_MS);
  const canary = new DnsCanary(transport, config.DNS_CANARY_DOMAINS);
  const dns = new CachingDnsResolver(
    canary.querier(transport),
    {
      maxEntries: config.DNS_CACHE_SIZE,
      negativeTtlMs: config.DNS_NEGATIVE_TTL_MS,
      failureTtlMs: config.DNS_FAILURE_TTL_MS,
    },
    events,
  );
  const mx = new DnsMxResolver(dns);
  const smtp = buildSmtpProbe(config, mx);
  const lists = loadBundledEmailLists({
    disposableAllow: config.EMAIL_DISPOSABLE_ALLOW,
    disposableDeny: config.EMAIL_DISPOSABLE_DENY,
  });
  const engine = createEmailEngine({
    mx,
    lists,
    ...(smtp && { smtp: smtp.verifier, smtpState: config.EMAIL_SMTP_PROBE }),
  });
  if (smtp) attachSmtpProbe(engine, smtp);
  // Every socket is per query or per probe and closed when it ends; the canary's timer and the
  // limiter's Redis connection (REDIS_URL) are closed here.
  return {
    engine,
    canary,
    close: async () => {
      canary.close();
      dns.clear();
      await smtp?.verifier.close();
    },
  };
}
