import { getServers } from 'node:dns';
import { isIP } from 'node:net';
import type { DnsServer } from './dns.types';

/**
 * The resolvers of /etc/resolv.conf as node reads them (`dns.getServers()` gives "ip",
 * "ip:port" or "[ipv6]:port"), for when DNS_SERVERS is empty.
 */
export function systemDnsServers(): DnsServer[] {
  const servers: DnsServer[] = [];
  for (const entry of getServers()) {
    const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
    if (bracketed) servers.push({ host: bracketed[1], port: Number(bracketed[2]) });
    else if (isIP(entry) !== 0) servers.push({ host: entry, port: 53 });
    else {
      const colon = entry.lastIndexOf(':');
      const host = entry.slice(0, colon);
      if (colon > 0 && isIP(host) === 4)
        servers.push({ host, port: Number(entry.slice(colon + 1)) });
    }
  }
  return servers;
}
