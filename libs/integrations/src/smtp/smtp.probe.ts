import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { MxHost, SmtpProbe, SmtpProbeResult, SmtpVerdict } from '@verity/validation';
import type { HostAddressResolver } from '../dns/dns.mx-resolver';
import { LruTtlCache } from '../dns/lru.cache';
import { SmtpSession, type SmtpReply } from './smtp.session';

/** Settings of the probe (EMAIL_SMTP_* in config). */
export interface SmtpProbeOptions {
  port: number;
  timeoutMs: number;
  helo: string;
  /** Reverse-path; '' sends the null reverse-path "<>". */
  mailFrom: string;
  /** Permit loopback/private mail hosts (tests only). */
  allowPrivate: boolean;
  /** How long a domain's catch-all answer is remembered (default 1 h). */
  catchAllTtlMs?: number;
  catchAllCacheSize?: number;
}

// Mail hosts on these ranges are refused unless allowPrivate: an MX is set by whoever owns
// the domain, so without this guard anyone could make us open connections inside our network.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4'); // prettier-ignore
for (const [net, bits] of [
  ['::', 127], ['::ffff:0:0', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) PRIVATE.addSubnet(net, bits, 'ipv6'); // prettier-ignore

const MAX_MX_HOSTS = 2;
const MAX_ADDRESSES_PER_HOST = 2;

/**
 * RCPT reply → verdict. 2xx accepts; 4xx (greylisting, rate limits) is unknown. 5xx is
 * undeliverable only when it is about the mailbox: enhanced status 5.1.x (bad address) or
 * 5.2.1 (disabled), or, without an enhanced code, 550/551/553. Policy refusals (5.7.x,
 * blocklists) and full mailboxes (5.2.2) say nothing about existence: unknown.
 */
export function classifyRcpt(reply: SmtpReply): SmtpVerdict {
  if (reply.code >= 200 && reply.code < 300) return 'deliverable';
  if (reply.code < 500 || reply.code > 599) return 'unknown';
  const enhanced = /^5\.(\d{1,3})\.(\d{1,3})\b/.exec(reply.text);
  if (enhanced) {
    const [, subject, detail] = enhanced;
    return subject === '1' || (subject === '2' && detail === '1') ? 'undeliverable' : 'unknown';
  }
  return reply.code === 550 || reply.code === 551 || reply.code === 553
    ? 'undeliverable'
    : 'unknown';
}

type Conversation = SmtpProbeResult | 'unreachable';

/** SMTP RCPT probe: EHLO, MAIL FROM, RCPT TO (and a random RCPT for catch-all), QUIT. */
export class SmtpMailboxProbe implements SmtpProbe {
  private readonly catchAll: LruTtlCache<boolean>;

  constructor(
    private readonly resolver: HostAddressResolver,
    private readonly options: SmtpProbeOptions,
  ) {
    this.catchAll = new LruTtlCache(options.catchAllCacheSize ?? 10_000);
  }

  async probe(address: string, domain: string, hosts: readonly MxHost[]): Promise<SmtpProbeResult> {
    for (const host of hosts.slice(0, MAX_MX_HOSTS)) {
      // Only addresses the MX name resolves to, never the name handed to the OS resolver.
      const addresses = (await this.resolver.resolveAddresses(host.exchange)).filter((ip) =>
        this.allowed(ip),
      );
      for (const ip of addresses.slice(0, MAX_ADDRESSES_PER_HOST)) {
        const result = await this.converse(ip, address, domain);
        if (result !== 'unreachable') return result;
      }
    }
    return { verdict: 'unknown', catchAll: this.catchAll.get(domain) ?? null };
  }

  private allowed(ip: string): boolean {
    const family = isIP(ip);
    if (family === 0) return false;
    return this.options.allowPrivate || !PRIVATE.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  }

  private async converse(ip: string, address: string, domain: string): Promise<Conversation> {
    let session: SmtpSession;
    try {
      session = await SmtpSession.open(ip, this.options.port, this.options.timeoutMs);
    } catch {
      return 'unreachable';
    }
    const known = this.catchAll.get(domain);
    const unknown: SmtpProbeResult = { verdict: 'unknown', catchAll: known ?? null };
    try {
      if (!isOk(await session.read())) return unknown;
      let hello = await session.command(`EHLO ${this.options.helo}`);
      if (!isOk(hello)) hello = await session.command(`HELO ${this.options.helo}`);
      if (!isOk(hello)) return unknown;
      // RFC 6531: a UTF-8 mailbox needs the server's SMTPUTF8 extension.
      const utf8 = /[\u0080-\uffff]/.test(address);
      if (utf8 && !/^SMTPUTF8\b/im.test(hello.text)) return unknown;
      const from = `MAIL FROM:<${this.options.mailFrom}>${utf8 ? ' SMTPUTF8' : ''}`;
      if (!isOk(await session.command(from))) return unknown;
      const verdict = classifyRcpt(await session.command(`RCPT TO:<${address}>`));
      if (verdict !== 'deliverable') {
        return { verdict, catchAll: verdict === 'undeliverable' ? false : (known ?? null) };
      }
      return { verdict, catchAll: known ?? (await this.detectCatchAll(session, domain)) };
    } catch {
      return unknown;
    } finally {
      await session.quit();
    }
  }

  /** A random mailbox that is accepted means the domain accepts every recipient. */
  private async detectCatchAll(session: SmtpSession, domain: string): Promise<boolean | null> {
    const probe = `verity-${randomBytes(8).toString('hex')}@${domain}`;
    const verdict = classifyRcpt(await session.command(`RCPT TO:<${probe}>`));
    if (verdict === 'unknown') return null;
    const catchAll = verdict === 'deliverable';
    this.catchAll.set(domain, catchAll, this.options.catchAllTtlMs ?? 3_600_000);
    return catchAll;
  }
}

function isOk(reply: SmtpReply): boolean {
  return reply.code >= 200 && reply.code < 300;
}
