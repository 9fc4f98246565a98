import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '@verity/config';
import { LoopbackDnsServer } from '@verity/testing';
import { DnsCanary } from './dns.canary';
import { buildEmailEngine } from './email-engine.factory';
import { UdpDnsTransport } from './udp.dns-transport';

/** A resolver that knows one mail domain, one that denies every domain, and a dead one. */
describe('DnsCanary', () => {
  const working = new LoopbackDnsServer({
    zone: {
      'gmail.com': { MX: [{ exchange: 'mx.gmail.com', preference: 5 }] },
      'mx.gmail.com': { A: ['127.0.0.1'] },
    },
  });
  const denying = new LoopbackDnsServer({ zone: {} });
  const dead = new LoopbackDnsServer({ zone: {}, silent: true });
  const at: Record<string, string> = {};

  before(async () => {
    for (const [name, server] of Object.entries({ working, denying, dead })) {
      const a = await server.start();
      at[name] = `${a.host}:${a.port}`;
    }
  });
  after(async () => {
    for (const server of [working, denying, dead]) await server.stop();
  });

  const canaryOn = (server: string, domains = ['gmail.com', 'outlook.com']) => {
    const [host, port] = server.split(':');
    return new DnsCanary(new UdpDnsTransport([{ host, port: Number(port) }], 300), domains);
  };

  it('is healthy when one canary domain resolves to mail exchangers', async () => {
    const report = await canaryOn(at.working).check();
    assert.equal(report.state, 'healthy');
    assert.deepEqual(
      report.domains.map((d) => `${d.domain}:${d.outcome}`),
      ['gmail.com:answer', 'outlook.com:nxdomain'],
    );
    assert.ok(report.checked_at);
  });

  it('says a resolver denying every canary denies domains, and one answering nothing is unreachable', async () => {
    assert.equal((await canaryOn(at.denying).check()).state, 'denies_domains');
    const unreachable = await canaryOn(at.dead).check();
    assert.equal(unreachable.state, 'unreachable');
    assert.deepEqual(
      unreachable.domains.map((d) => d.outcome),
      ['timeout', 'timeout'],
    );
  });

  it('asks nothing when off, and stays unchecked', async () => {
    const before = denying.queries.length;
    const canary = canaryOn(at.denying, []);
    await canary.start(1_000, 60_000);
    assert.equal((await canary.check()).state, 'unchecked');
    assert.equal(denying.queries.length, before);
    canary.close();
  });

  it('while the resolver denies the canaries, "no such domain" is a failed lookup: unknown, never undeliverable', async () => {
    const config = loadConfig({
      DNS_SERVERS: at.denying,
      DNS_CANARY_DOMAINS: 'gmail.com,outlook.com',
      DNS_FAILURE_TTL_MS: '0',
    });
    const built = buildEmailEngine(config);
    try {
      // Unchecked, an NXDOMAIN is believed: the domain has no mail.
      const believed = await built.engine.validate('jane@nowhere.example');
      assert.equal(believed.deliverability, 'undeliverable');
      assert.equal((await built.canary.check()).state, 'denies_domains');
      const doubted = await built.engine.validate('jane@elsewhere.example');
      assert.equal(doubted.deliverability, 'unknown');
      assert.equal(doubted.mx_found, false);
    } finally {
      await built.close();
    }
  });
});
