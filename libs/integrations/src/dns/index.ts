// DNS adapter of the email engine's MxResolver port, plus the engine's composition helper.
export type {
  DnsEvents,
  DnsQueryOutcome,
  DnsRecordType,
  DnsResult,
  DnsServer,
  MxRecord,
} from './dns.types';
export {
  UdpDnsTransport,
  DnsTimeoutError,
  DnsTransportError,
  type DnsReply,
} from './udp.dns-transport';
export { CachingDnsResolver, type DnsCacheOptions, type DnsQuerier } from './caching.dns-resolver';
export { DnsMxResolver, type HostAddressResolver } from './dns.mx-resolver';
export { LruTtlCache } from './lru.cache';
export { DnsCanary, type CanaryOutcome, type CanaryReport, type ResolverState } from './dns.canary';
export { systemDnsServers } from './system.dns-servers';
export { buildEmailEngine, type BuiltEmailEngine } from './email-engine.factory';
