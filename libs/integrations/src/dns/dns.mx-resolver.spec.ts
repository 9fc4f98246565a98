import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CachingDnsResolver } from './caching.dns-resolver';
import { DnsMxResolver } from './dns.mx-resolver';
import type { DnsEvents, DnsQueryOutcome, DnsServer } from './dns.types';
import { LoopbackDnsServer } from '@verity/testing';
import { UdpDnsTransport } from './udp.dns-transport';

const zone = {
  'mail.test': {
    MX: [
      { exchange: 'mx2.mail.test', preference: 20 },
      { exchange: 'mx1.mail.test', preference: 10 },
    ],
  },
  'nullmx.test': { MX: [{ exchange: '.', preference: 0 }] },
  'implicit.test': { A: ['127.0.0.1'] },
  'implicit6.test': { AAAA: ['::1'] },
  'empty.test': {},
  'broken.test': { servfail: true },
  'big.test': { truncate: true, MX: [{ exchange: 'mx.big.test', preference: 5 }] },
  'mx1.mail.test': { A: ['127.0.0.1', '127.0.0.2'], AAAA: ['::1'] },
  'short.test': { MX: [{ exchange: 'mx.short.test', preference: 1 }], ttl: 0 },
};

function recorder(): DnsEvents & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    onQuery: (o: DnsQueryOutcome) => log.push(`query:${o}`),
    onCacheHit: () => log.push('hit'),
    onCacheMiss: () => log.push('miss'),
  };
}

describe('DnsMxResolver over a loopback DNS server', () => {
  const server = new LoopbackDnsServer({ zone });
  let address: DnsServer;
  let events: ReturnType<typeof recorder>;
  let resolver: DnsMxResolver;

  before(async () => {
    address = await server.start();
  });
  after(() => server.stop());
  beforeEach(() => {
    server.queries.length = 0;
    events = recorder();
    const dns = new CachingDnsResolver(
      new UdpDnsTransport([address], 1_000),
      { maxEntries: 100, negativeTtlMs: 60_000 },
      events,
    );
    resolver = new DnsMxResolver(dns);
  });

  it('returns MX hosts by preference', async () => {
    assert.deepEqual(await resolver.lookupMx('Mail.Test'), {
      kind: 'mx',
      hosts: [
        { exchange: 'mx1.mail.test', preference: 10 },
        { exchange: 'mx2.mail.test', preference: 20 },
      ],
    });
    assert.deepEqual(events.log, ['miss', 'query:answer']);
  });

  it('answers a cached MX answer without a promise, and nothing it has not cached', async () => {
    assert.equal(resolver.cachedMx('mail.test'), undefined);
    const looked = await resolver.lookupMx('mail.test');
    assert.equal(resolver.cachedMx('MAIL.test.'), looked);
    assert.deepEqual(events.log, ['miss', 'query:answer', 'hit']);
    // A cached NXDOMAIN or NODATA is left to lookupMx (implicit MX needs A/AAAA lookups).
    await resolver.lookupMx('nowhere.test');
    await resolver.lookupMx('implicit.test');
    assert.equal(resolver.cachedMx('nowhere.test'), undefined);
    assert.equal(resolver.cachedMx('implicit.test'), undefined);
    assert.equal(server.count('MX', 'mail.test'), 1);
  });

  it('recognises a null MX (RFC 7505)', async () => {
    assert.deepEqual(await resolver.lookupMx('nullmx.test'), { kind: 'null_mx' });
  });

  it('falls back to A/AAAA as an implicit MX (RFC 5321 §5.1)', async () => {
    assert.deepEqual(await resolver.lookupMx('implicit.test'), {
      kind: 'implicit',
      hosts: [{ exchange: 'implicit.test', preference: 0 }],
    });
    assert.equal((await resolver.lookupMx('implicit6.test')).kind, 'implicit');
    assert.equal(server.count('A', 'implicit.test'), 1);
  });

  it('reports NXDOMAIN and names without MX or addresses as no mail', async () => {
    assert.deepEqual(await resolver.lookupMx('nowhere.test'), { kind: 'no_mail' });
    assert.deepEqual(await resolver.lookupMx('empty.test'), { kind: 'no_mail' });
    assert.equal(server.count('A', 'nowhere.test'), 0);
    assert.ok(events.log.includes('query:nxdomain'));
    assert.ok(events.log.includes('query:nodata'));
  });

  it('reports SERVFAIL as unknown, not as no mail', async () => {
    assert.deepEqual(await resolver.lookupMx('broken.test'), {
      kind: 'unknown',
      reason: 'servfail',
    });
  });

  it('retries a truncated answer over TCP', async () => {
    assert.deepEqual(await resolver.lookupMx('big.test'), {
      kind: 'mx',
      hosts: [{ exchange: 'mx.big.test', preference: 5 }],
    });
  });

  it('resolves mail host addresses (A and AAAA)', async () => {
    assert.deepEqual((await resolver.resolveAddresses('mx1.mail.test')).sort(), [
      '127.0.0.1',
      '127.0.0.2',
      '::1',
    ]);
  });

  it('answers a second lookup from cache without a query', async () => {
    await resolver.lookupMx('mail.test');
    await resolver.lookupMx('mail.test');
    assert.equal(server.count('MX', 'mail.test'), 1);
    assert.deepEqual(events.log, ['miss', 'query:answer', 'hit']);
  });

  it('caches negative answers too', async () => {
    await resolver.lookupMx('nowhere.test');
    await resolver.lookupMx('nowhere.test');
    assert.equal(server.count('MX', 'nowhere.test'), 1);
  });

  it('does not cache a zero TTL or a failure', async () => {
    await resolver.lookupMx('short.test');
    await resolver.lookupMx('short.test');
    assert.equal(server.count('MX', 'short.test'), 2);
    await resolver.lookupMx('broken.test');
    await resolver.lookupMx('broken.test');
    assert.equal(server.count('MX', 'broken.test'), 2);
  });

  it('coalesces concurrent lookups of one domain into one query', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => resolver.lookupMx('mail.test')),
    );
    assert.equal(server.count('MX', 'mail.test'), 1);
    assert.ok(results.every((r) => r.kind === 'mx'));
  });
});

describe('DnsMxResolver with a server that never answers', () => {
  const dead = new LoopbackDnsServer({ zone, silent: true });
  const live = new LoopbackDnsServer({ zone });
  let deadAddress: DnsServer;
  let liveAddress: DnsServer;

  before(async () => {
    deadAddress = await dead.start();
    liveAddress = await live.start();
  });
  after(() => Promise.all([dead.stop(), live.stop()]));

  const build = (servers: DnsServer[], events: DnsEvents = {}) =>
    new DnsMxResolver(
      new CachingDnsResolver(
        new UdpDnsTransport(servers, 150),
        { maxEntries: 100, negativeTtlMs: 60_000 },
        events,
      ),
    );

  it('reports a timeout as unknown and does not cache it', async () => {
    const events = recorder();
    const resolver = build([deadAddress], events);
    assert.deepEqual(await resolver.lookupMx('mail.test'), { kind: 'unknown', reason: 'timeout' });
    await resolver.lookupMx('mail.test');
    assert.equal(dead.count('MX', 'mail.test'), 2);
    assert.deepEqual(events.log, ['miss', 'query:timeout', 'miss', 'query:timeout']);
  });

  it('remembers a timeout for failureTtlMs (RFC 2308 §7), then asks again', async () => {
    let clock = 1_000_000;
    const events = recorder();
    const resolver = new DnsMxResolver(
      new CachingDnsResolver(
        new UdpDnsTransport([deadAddress], 150),
        { maxEntries: 100, negativeTtlMs: 60_000, failureTtlMs: 5_000 },
        events,
        () => clock,
      ),
    );
    dead.queries.length = 0;
    const first = await resolver.lookupMx('short.test');
    assert.deepEqual(first, { kind: 'unknown', reason: 'timeout' });
    assert.deepEqual(await resolver.lookupMx('short.test'), first);
    assert.equal(dead.count('MX', 'short.test'), 1, 'the second call did not wait again');
    clock += 5_001;
    assert.deepEqual(await resolver.lookupMx('short.test'), first);
    assert.equal(dead.count('MX', 'short.test'), 2, 'asked again once the failure expired');
    assert.deepEqual(events.log, ['miss', 'query:timeout', 'hit', 'miss', 'query:timeout']);
  });

  it('moves on to the next server after a timeout', async () => {
    const resolver = build([deadAddress, liveAddress]);
    assert.equal((await resolver.lookupMx('mail.test')).kind, 'mx');
  });
});
