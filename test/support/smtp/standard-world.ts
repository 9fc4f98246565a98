import type { MailBehaviour, MailHostSpec } from './mail-host.server';
import type { MailWorldSpec, WorldDomainSpec } from './mail-world';

/** The shape of the standard world (docs/models/email.md, "Test world"). */
export interface StandardWorldOptions {
  /** Domains on truthful hosts, three per host (several domains share a provider's MX). */
  plainDomains: number;
  /** Addresses of each plain domain. */
  perPlainDomain: number;
  /** Addresses of each domain with a special behaviour. */
  perSpecialDomain: number;
  greylistMs: number;
  tarpitMs: number;
  /** The connection-limited host's limits. */
  limited: { maxConcurrent: number; maxPerWindow: number; windowMs: number };
}

/** The special hosts, one domain each (two for greylisting, catch-all). */
const SPECIAL: readonly [MailBehaviour, number][] = [
  ['catch_all', 2],
  ['greylist', 2],
  ['policy', 1],
  ['tarpit', 1],
  ['limited', 1],
  ['one_rcpt', 1],
  ['full', 1],
  ['plain', 1],
];

/** 127.0.0.2, 127.0.0.3, … then 127.0.1.x: every host its own loopback address. */
function ipOf(n: number): string {
  return `127.0.${Math.floor((n + 2) / 250)}.${((n + 2) % 250) + 2}`;
}

/** A mailbox split of `n` addresses: 60 % exist, 5 % disabled, the rest missing. */
function split(
  n: number,
  full = 0,
): Pick<WorldDomainSpec, 'existing' | 'missing' | 'disabled' | 'full'> {
  const existing = Math.round(n * 0.6) - full;
  const disabled = Math.round(n * 0.05);
  return { existing, disabled, full, missing: n - existing - disabled - full };
}

/**
 * Plain truthful domains plus one or two domains of every behaviour of the issue: catch-all,
 * greylisting, a 5.7.1 block list, a tarpit, a connection limit answered with 421, one recipient
 * per session (452), full mailboxes, and replies without enhanced status codes.
 */
export function standardWorld(o: StandardWorldOptions): MailWorldSpec {
  const hosts: MailHostSpec[] = [];
  const domains: WorldDomainSpec[] = [];
  const plainHosts = Math.ceil(o.plainDomains / 3);
  for (let h = 0; h < plainHosts; h++) {
    hosts.push({ name: `mx${h}.truth-mail.com`, ip: ipOf(hosts.length), behaviour: 'truthful' });
  }
  for (let d = 0; d < o.plainDomains; d++) {
    domains.push({
      domain: `truth${d}-world.com`,
      host: `mx${d % plainHosts}.truth-mail.com`,
      ...split(o.perPlainDomain),
    });
  }
  for (const [behaviour, count] of SPECIAL) {
    const name = `mx.${behaviour.replace('_', '-')}-mail.com`;
    hosts.push({
      name,
      ip: ipOf(hosts.length),
      behaviour,
      greylistMs: o.greylistMs,
      tarpitMs: o.tarpitMs,
      ...(behaviour === 'limited' && o.limited),
    });
    for (let d = 0; d < count; d++) {
      const full = behaviour === 'full' ? Math.round(o.perSpecialDomain * 0.3) : 0;
      domains.push({
        domain: `${behaviour.replace('_', '-')}${d}-world.com`,
        host: name,
        ...split(o.perSpecialDomain, full),
      });
    }
  }
  return { hosts, domains };
}
