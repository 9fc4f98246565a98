import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SmtpProbeResult, SmtpTarget } from '@verity/validation';
import { MailWorld, Socks5Server, type MailHostSpec } from '@verity/testing';
import { CachingDnsResolver } from '../dns/caching.dns-resolver';
import { DnsMxResolver } from '../dns/dns.mx-resolver';
import { UdpDnsTransport } from '../dns/udp.dns-transport';
import { MemoryMailHostLimiter } from './limiter/memory.mail-host-limiter';
import { directDialer, socksDialer } from './smtp.dialer';
import { BLOCKED_AFTER_TIMEOUTS } from './smtp.outbound-watch';
import { SmtpVerifier, type SmtpVerifierSettings } from './smtp.verifier';

const HOSTS: MailHostSpec[] = [
  { name: 'mx.truth.test', ip: '127.0.0.2', behaviour: 'truthful' },
  { name: 'mx.catchall.test', ip: '127.0.0.3', behaviour: 'catch_all' },
  { name: 'mx.grey.test', ip: '127.0.0.4', behaviour: 'greylist', greylistMs: 300 },
  { name: 'mx.policy.test', ip: '127.0.0.5', behaviour: 'policy' },
  { name: 'mx.tarpit.test', ip: '127.0.0.6', behaviour: 'tarpit', tarpitMs: 10_000 },
  { name: 'mx.limited.test', ip: '127.0.0.7', behaviour: 'limited', maxConcurrent: 1 },
  { name: 'mx.one.test', ip: '127.0.0.8', behaviour: 'one_rcpt' },
  { name: 'mx.full.test', ip: '127.0.0.9', behaviour: 'full' },
  { name: 'mx.plain.test', ip: '127.0.0.10', behaviour: 'plain' },
];

describe('SmtpVerifier against a loopback mail world', () => {
  let world: MailWorld;
  let mx: DnsMxResolver;

  before(async () => {
    world = await MailWorld.start({
      hosts: HOSTS,
      domains: [
        { domain: 'a-truth.com', host: 'mx.truth.test', existing: 30, missing: 20, disabled: 2 },
        { domain: 'b-truth.com', host: 'mx.truth.test', existing: 30, missing: 20 },
        { domain: 'c-catchall.com', host: 'mx.catchall.test', existing: 3, missing: 3 },
        { domain: 'd-grey.com', host: 'mx.grey.test', existing: 4, missing: 3 },
        { domain: 'e-policy.com', host: 'mx.policy.test', existing: 3, missing: 3 },
        { domain: 'f-tarpit.com', host: 'mx.tarpit.test', existing: 20, missing: 20 },
        { domain: 'g-limited.com', host: 'mx.limited.test', existing: 20, missing: 10 },
        { domain: 'h-one.com', host: 'mx.one.test', existing: 4, missing: 3 },
        { domain: 'i-full.com', host: 'mx.full.test', existing: 3, missing: 2, full: 3 },
        { domain: 'j-plain.com', host: 'mx.plain.test', existing: 3, missing: 3 },
      ],
    });
    mx = new DnsMxResolver(
      new CachingDnsResolver(new UdpDnsTransport([world.dnsAddress], 1_000), {
        maxEntries: 1_000,
        negativeTtlMs: 1_000,
      }),
    );
  });
  after(() => world.stop());

  const settings = (overrides: Partial<SmtpVerifierSettings> = {}): SmtpVerifierSettings => ({
    port: world.port,
    timeoutMs: 500,
    helo: 'probe.test',
    mailFrom: '',
    allowPrivate: true,
    dial: directDialer,
    rcptsPerSession: 50,
    maxSessions: 16,
    hostConcurrency: 3,
    refusalBackoffMs: 100,
    cache: true,
    cacheSize: 10_000,
    acceptAllHosts: [],
    ...overrides,
  });
  const verifier = (overrides: Partial<SmtpVerifierSettings> = {}) =>
    new SmtpVerifier(
      mx,
      settings(overrides),
      new MemoryMailHostLimiter({
        maxConcurrent: overrides.hostConcurrency ?? 3,
        maxPerWindow: 1_000,
        windowMs: 60_000,
        leaseMs: 60_000,
        learnedCapMs: 60_000,
      }),
    );
  const targetsOf = (domain: string): SmtpTarget[] =>
    world.addresses
      .filter((a) => a.domain === domain)
      .map((a) => ({
        address: a.address,
        domain,
        hosts: [{ exchange: world.mxOf.get(domain)!, preference: 10 }],
      }));
  const verdicts = (targets: SmtpTarget[], results: SmtpProbeResult[]) =>
    targets.map((t, i) => [world.truth(t.address), results[i].verdict, results[i].evidence.reason]);

  it('asks a host about many addresses of several domains in few sessions, in input order', async () => {
    const host = world.hosts.get('mx.truth.test')!;
    const before = { ...host.stats };
    const targets = [...targetsOf('a-truth.com'), ...targetsOf('b-truth.com')];
    let answered = 0;
    const results = await verifier().probeMany(targets, {
      mode: 'batch',
      onAnswer: () => answered++,
    });
    assert.equal(answered, targets.length);
    for (const [truth, verdict] of verdicts(targets, results)) {
      assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
    }
    assert.ok(results.every((r) => r.catchAll === false && r.evidence.source === 'live'));
    const disabled = results.filter((r) => r.evidence.reason === 'mailbox_disabled');
    assert.equal(disabled.length, 2);
    assert.equal(results[0].evidence.host, 'mx.truth.test');
    assert.equal(results[0].evidence.code, 250);
    // 102 addresses and 2 catch-all checks at 50 a session: 3 sessions.
    assert.equal(host.stats.sessions - before.sessions, 3);
    assert.equal(host.stats.rcpts - before.rcpts, targets.length + 2);
  });

  it('answers from its cache without a session, and says so', async () => {
    const v = verifier();
    const targets = targetsOf('a-truth.com').slice(0, 5);
    await v.probeMany(targets, { mode: 'batch' });
    const host = world.hosts.get('mx.truth.test')!;
    const sessions = host.stats.sessions;
    const again = await v.probeMany(targets, { mode: 'call' });
    assert.equal(host.stats.sessions, sessions);
    assert.ok(again.every((r) => r.evidence.source === 'cached' && r.evidence.durationMs === 0));
    const off = verifier({ cache: false });
    await off.probeMany(targets, { mode: 'batch' });
    await off.probeMany(targets, { mode: 'batch' });
    assert.equal(host.stats.sessions, sessions + 2);
  });

  it('finds a catch-all domain with one random recipient and answers its addresses catch-all', async () => {
    const targets = targetsOf('c-catchall.com');
    const results = await verifier().probeMany(targets, { mode: 'batch' });
    assert.ok(results.every((r) => r.verdict === 'deliverable' && r.catchAll === true));
  });

  it('never calls a policy refusal, a full mailbox or a tarpit undeliverable', async () => {
    const targets = [
      ...targetsOf('e-policy.com'),
      ...targetsOf('i-full.com'),
      ...targetsOf('f-tarpit.com'),
    ];
    const v = verifier();
    const tarpit = world.hosts.get('mx.tarpit.test')!;
    const sessions = tarpit.stats.sessions;
    const results = await v.probeMany(targets, { mode: 'batch' });
    for (const [truth, verdict, reason] of verdicts(targets, results)) {
      if (truth !== 'missing') assert.notEqual(verdict, 'undeliverable', `${reason}`);
    }
    const reasons = new Set(results.map((r) => r.evidence.reason));
    assert.ok(
      reasons.has('policy_refusal') && reasons.has('mailbox_full') && reasons.has('timeout'),
    );
    const policy = results[0].evidence;
    assert.deepEqual([policy.code, policy.enhanced], [550, '5.7.1']);
    // A silent host costs one session, not one per batch of recipients.
    assert.equal(tarpit.stats.sessions - sessions, 1);
  });

  it('reads a plain 550 naming the user as a missing mailbox', async () => {
    const targets = targetsOf('j-plain.com');
    const results = await verifier().probeMany(targets, { mode: 'batch' });
    for (const [truth, verdict] of verdicts(targets, results)) {
      assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
    }
  });

  it('answers greylisted addresses unknown and retryable, and truthfully once the delay passed', async () => {
    const v = verifier();
    const targets = targetsOf('d-grey.com');
    const first = await v.probeMany(targets, { mode: 'batch' });
    assert.ok(
      first.every((r) => r.evidence.reason === 'temporary_failure' && r.evidence.retryable),
    );
    assert.ok(first.every((r) => r.verdict === 'unknown' && r.evidence.enhanced === '4.7.1'));
    await sleep(350);
    const second = await v.probeMany(targets, { mode: 'batch' });
    for (const [truth, verdict] of verdicts(targets, second)) {
      assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
    }
  });

  it('learns a one-recipient host from 452 and still answers every address', async () => {
    const targets = targetsOf('h-one.com');
    const results = await verifier().probeMany(targets, { mode: 'batch' });
    for (const [truth, verdict] of verdicts(targets, results)) {
      assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
    }
  });

  it('backs off a host that answers 421 and finishes within its own limit', async () => {
    const host = world.hosts.get('mx.limited.test')!;
    const targets = targetsOf('g-limited.com');
    const results = await verifier({ rcptsPerSession: 5 }).probeMany(targets, { mode: 'batch' });
    for (const [truth, verdict] of verdicts(targets, results)) {
      assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
    }
    assert.ok(host.stats.refused421 > 0, 'the host refused some sessions');
    assert.ok(host.stats.peakConcurrent <= 3, `${host.stats.peakConcurrent} sessions at once`);
  });

  it('keeps every host within its cap', () => {
    for (const [name, stats] of Object.entries(world.stats())) {
      assert.ok(stats.peakConcurrent <= 3, `${name}: ${stats.peakConcurrent} at once`);
    }
  });

  it('answers a single call unknown at once when the host is busy, instead of waiting', async () => {
    const limiter = new MemoryMailHostLimiter({
      maxConcurrent: 1,
      maxPerWindow: 1,
      windowMs: 60_000,
      leaseMs: 60_000,
      learnedCapMs: 60_000,
    });
    const v = new SmtpVerifier(mx, settings({ cache: false }), limiter);
    const [target] = targetsOf('b-truth.com');
    await v.probeMany([target], { mode: 'call' });
    const started = Date.now();
    const [busy] = await v.probeMany([target], { mode: 'call' });
    assert.equal(busy.verdict, 'unknown');
    assert.equal(busy.evidence.reason, 'connection_limit');
    assert.equal(busy.evidence.retryable, true);
    assert.ok(Date.now() - started < 60_000);
  });

  it('answers accept-all providers catch-all without a connection', async () => {
    const host = world.hosts.get('mx.truth.test')!;
    const sessions = host.stats.sessions;
    const targets = targetsOf('a-truth.com').slice(0, 3);
    const results = await verifier({ acceptAllHosts: ['truth.test'], cache: false }).probeMany(
      targets,
      { mode: 'batch' },
    );
    assert.ok(results.every((r) => r.evidence.reason === 'accept_all_provider' && r.catchAll));
    assert.equal(host.stats.sessions, sessions);
  });

  it('refuses private mail hosts unless allowed', async () => {
    const host = world.hosts.get('mx.truth.test')!;
    const sessions = host.stats.sessions;
    const results = await verifier({ allowPrivate: false, cache: false }).probeMany(
      targetsOf('b-truth.com').slice(0, 2),
      { mode: 'call' },
    );
    assert.ok(results.every((r) => r.evidence.reason === 'unreachable'));
    assert.equal(host.stats.sessions, sessions);
  });

  it('stops when its signal aborts', async () => {
    const aborted = AbortSignal.abort(new Error('job ended'));
    await assert.rejects(
      verifier({ cache: false }).probeMany(targetsOf('b-truth.com'), {
        mode: 'batch',
        signal: aborted,
      }),
      /job ended/,
    );
  });

  describe('through a SOCKS5 proxy', () => {
    let proxy: Socks5Server;
    let silent: Socks5Server;
    before(() => {
      proxy = new Socks5Server({ credentials: { username: 'probe', password: 's3cret' } });
      silent = new Socks5Server({ silent: true });
    });
    after(async () => {
      await proxy.stop();
      await silent.stop();
    });

    it('dials every mail host through the proxy, with its credentials', async () => {
      const { host, port } = await proxy.start();
      const dial = socksDialer({ host, port, username: 'probe', password: 's3cret' });
      const targets = targetsOf('j-plain.com');
      const results = await verifier({ dial, cache: false }).probeMany(targets, { mode: 'batch' });
      for (const [truth, verdict] of verdicts(targets, results)) {
        assert.equal(verdict, truth === 'exists' ? 'deliverable' : 'undeliverable');
      }
      assert.deepEqual([...new Set(proxy.connects)], [`127.0.0.10:${world.port}`]);
    });

    it('says port 25 looks blocked when every connection times out', async () => {
      const { host, port } = await silent.start();
      const v = verifier({ dial: socksDialer({ host, port }), cache: false, timeoutMs: 150 });
      // One address of each host: a host that timed out is not dialled again for a while.
      const domains = [...world.mxOf.keys()].filter((d) => d !== 'b-truth.com');
      for (let round = 0; v.watch.status().state !== 'blocked'; round++) {
        assert.ok(round < BLOCKED_AFTER_TIMEOUTS, JSON.stringify(v.watch.status()));
        const domain = domains[round % domains.length];
        const [result] = await v.probeMany(targetsOf(domain).slice(0, 1), { mode: 'call' });
        assert.equal(result.evidence.reason, 'timeout');
      }
      assert.match(v.watch.status().warning ?? '', /port 25 looks blocked/);
    });
  });
});
