import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { MxHost } from '@verity/validation';
import { CachingDnsResolver } from '../dns/caching.dns-resolver';
import { DnsMxResolver } from '../dns/dns.mx-resolver';
import { LoopbackDnsServer } from '@verity/testing';
import { UdpDnsTransport } from '../dns/udp.dns-transport';
import { SmtpMailboxProbe, classifyRcpt, type SmtpProbeOptions } from './smtp.probe';

/** RCPT reply by local part; an error carries the SMTP code smtp-server sends back. */
function rcptError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

describe('SmtpMailboxProbe against a local SMTP server', () => {
  const dns = new LoopbackDnsServer({
    zone: {
      'mail.test': { MX: [{ exchange: 'mx.mail.test', preference: 10 }] },
      'catchall.test': { MX: [{ exchange: 'mx.mail.test', preference: 10 }] },
      'elsewhere.test': { MX: [{ exchange: 'mx.elsewhere.test', preference: 10 }] },
      'mx.mail.test': { A: ['127.0.0.1'] },
      'mx.elsewhere.test': { A: ['10.1.2.3'] },
    },
  });
  const rcpts: string[] = [];
  let dataSeen = false;
  const smtp = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const rcpt = address.address.toLowerCase();
      rcpts.push(rcpt);
      const [local, domain] = rcpt.split('@');
      if (domain === 'catchall.test' || local === 'alice') return callback();
      if (local === 'grey') return callback(rcptError(451, '4.7.1 Greylisted, try later'));
      if (local === 'blocked') return callback(rcptError(554, '5.7.1 Client host rejected'));
      return callback(rcptError(550, '5.1.1 User unknown'));
    },
    onData(stream, _session, callback) {
      dataSeen = true;
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  let probe: SmtpMailboxProbe;
  let options: SmtpProbeOptions;
  let resolver: DnsMxResolver;

  before(async () => {
    const dnsAddress = await dns.start();
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    resolver = new DnsMxResolver(
      new CachingDnsResolver(new UdpDnsTransport([dnsAddress], 1_000), {
        maxEntries: 100,
        negativeTtlMs: 1_000,
      }),
    );
    options = { port, timeoutMs: 2_000, helo: 'probe.test', mailFrom: '', allowPrivate: true };
    probe = new SmtpMailboxProbe(resolver, options);
  });
  after(async () => {
    await new Promise<void>((resolve) => smtp.close(resolve));
    await dns.stop();
  });

  const hostsOf = async (domain: string): Promise<readonly MxHost[]> => {
    const lookup = await resolver.lookupMx(domain);
    assert.equal(lookup.kind, 'mx');
    return lookup.kind === 'mx' ? lookup.hosts : [];
  };

  it('reports an accepted mailbox as deliverable and checks for catch-all', async () => {
    rcpts.length = 0;
    const result = await probe.probe('alice@mail.test', 'mail.test', await hostsOf('mail.test'));
    assert.deepEqual(result, { verdict: 'deliverable', catchAll: false });
    assert.equal(rcpts.length, 2);
    assert.match(rcpts[1], /^verity-[0-9a-f]{16}@mail\.test$/);
  });

  it('reports "user unknown" as undeliverable', async () => {
    const result = await probe.probe('bob@mail.test', 'mail.test', await hostsOf('mail.test'));
    assert.deepEqual(result, { verdict: 'undeliverable', catchAll: false });
  });

  it('reports greylisting and policy refusals as unknown', async () => {
    const hosts = await hostsOf('mail.test');
    assert.equal((await probe.probe('grey@mail.test', 'mail.test', hosts)).verdict, 'unknown');
    assert.equal((await probe.probe('blocked@mail.test', 'mail.test', hosts)).verdict, 'unknown');
  });

  it('detects a catch-all domain once and caches it', async () => {
    const hosts = await hostsOf('catchall.test');
    rcpts.length = 0;
    const first = await probe.probe('anyone@catchall.test', 'catchall.test', hosts);
    assert.deepEqual(first, { verdict: 'deliverable', catchAll: true });
    const second = await probe.probe('other@catchall.test', 'catchall.test', hosts);
    assert.deepEqual(second, { verdict: 'deliverable', catchAll: true });
    assert.equal(rcpts.length, 3); // two real recipients, one random probe
  });

  it('never sends DATA', () => {
    assert.equal(dataSeen, false);
  });

  it('reports a refused connection as unknown', async () => {
    const closed = new SmtpMailboxProbe(resolver, { ...options, port: 1 });
    const result = await closed.probe('alice@mail.test', 'mail.test', await hostsOf('mail.test'));
    assert.deepEqual(result, { verdict: 'unknown', catchAll: null });
  });

  it('refuses private mail hosts unless allowed', async () => {
    const guarded = new SmtpMailboxProbe(resolver, { ...options, allowPrivate: false });
    rcpts.length = 0;
    const result = await guarded.probe('alice@mail.test', 'mail.test', await hostsOf('mail.test'));
    assert.deepEqual(result, { verdict: 'unknown', catchAll: null });
    assert.equal(rcpts.length, 0);
    // 10.1.2.3 is private too: with the guard on, no connection is attempted at all.
    const other = await guarded.probe(
      'x@elsewhere.test',
      'elsewhere.test',
      await hostsOf('elsewhere.test'),
    );
    assert.equal(other.verdict, 'unknown');
  });
});

describe('SmtpMailboxProbe with a server that never speaks', () => {
  it('times out to unknown', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const probe = new SmtpMailboxProbe(
      { resolveAddresses: () => Promise.resolve(['127.0.0.1']) },
      { port, timeoutMs: 150, helo: 'probe.test', mailFrom: '', allowPrivate: true },
    );
    const result = await probe.probe('a@slow.test', 'slow.test', [
      { exchange: 'mx.slow.test', preference: 1 },
    ]);
    assert.deepEqual(result, { verdict: 'unknown', catchAll: null });
    silent.close();
  });
});

describe('classifyRcpt', () => {
  it('maps reply codes and enhanced status codes', () => {
    assert.equal(classifyRcpt({ code: 250, text: '2.1.5 Ok' }), 'deliverable');
    assert.equal(classifyRcpt({ code: 550, text: '5.1.1 No such user' }), 'undeliverable');
    assert.equal(classifyRcpt({ code: 550, text: 'No such user' }), 'undeliverable');
    assert.equal(classifyRcpt({ code: 550, text: '5.2.1 Mailbox disabled' }), 'undeliverable');
    assert.equal(classifyRcpt({ code: 552, text: '5.2.2 Mailbox full' }), 'unknown');
    assert.equal(classifyRcpt({ code: 550, text: '5.7.1 Blocked' }), 'unknown');
    assert.equal(classifyRcpt({ code: 554, text: 'Rejected' }), 'unknown');
    assert.equal(classifyRcpt({ code: 450, text: '4.2.0 Greylisted' }), 'unknown');
  });
});
