import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmailEngine } from './email.engine';
import { createEmailLists } from './email.lists';
import type { MxLookup, MxResolver, SmtpProbe, SmtpProbeResult } from './email.ports';

const lists = createEmailLists({
  disposable: ['mailinator.com'],
  free: ['gmail.com'],
  roles: ['info'],
});

/** A resolver answering from a table, recording what it was asked. */
function tableResolver(table: Record<string, MxLookup>): MxResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookupMx: (domain) => {
      asked.push(domain);
      return Promise.resolve(table[domain] ?? { kind: 'no_mail' });
    },
  };
}

const MX: MxLookup = { kind: 'mx', hosts: [{ exchange: 'mx.example.com', preference: 10 }] };

describe('createEmailEngine', () => {
  it('answers special-use names without asking DNS (RFC 7686, RFC 6761, RFC 6762)', async () => {
    const mx = tableResolver({ 'hidden.onion': MX, 'printer.local': MX, 'a.test': MX });
    const engine = createEmailEngine({ mx, lists });
    for (const address of [
      'x@hidden.onion',
      'x@printer.local',
      'x@host.localhost',
      'x@a.invalid',
    ]) {
      const { fields, dns } = await engine.check(address);
      assert.equal(dns, 'special_use', address);
      assert.equal(fields.mx_found, false, address);
      assert.equal(fields.deliverability, 'undeliverable', address);
    }
    assert.deepEqual(mx.asked, []);
    const ordinary = await engine.check('x@a.test');
    assert.equal(ordinary.dns, 'answered');
    assert.equal(ordinary.fields.mx_found, true);
    assert.deepEqual(mx.asked, ['a.test']);
  });

  it('tells a failed lookup from an answer', async () => {
    const engine = createEmailEngine({
      mx: tableResolver({ 'slow.example': { kind: 'unknown', reason: 'timeout' } }),
      lists,
    });
    const failed = await engine.check('jane@slow.example');
    assert.equal(failed.dns, 'failed');
    assert.equal(failed.fields.deliverability, 'unknown');
    assert.equal((await engine.check('jane@nowhere.example')).dns, 'answered');
    assert.equal((await engine.check('not an address')).dns, 'not_asked');
  });

  it('returns every EmailFields field for a good address', async () => {
    const engine = createEmailEngine({ mx: tableResolver({ 'gmail.com': MX }), lists });
    assert.deepEqual(await engine.validate('Jane.Doe@GMAIL.com'), {
      input: 'Jane.Doe@GMAIL.com',
      valid_syntax: true,
      mx_found: true,
      disposable: false,
      role_based: false,
      free_provider: true,
      did_you_mean: null,
      deliverability: 'deliverable',
      score: 95,
    });
  });

  it('takes an answer the resolver has at hand, and asks lookupMx for the rest', async () => {
    const mx = tableResolver({ 'gmail.com': MX, 'example.org': MX });
    const atHand: string[] = [];
    const engine = createEmailEngine({
      mx: {
        ...mx,
        cachedMx: (domain) => {
          atHand.push(domain);
          return domain === 'gmail.com' ? { kind: 'null_mx' } : undefined;
        },
      },
      lists,
    });
    const cached = await engine.validate('jane@gmail.com');
    assert.equal(cached.mx_found, false);
    assert.equal(cached.deliverability, 'undeliverable');
    assert.equal((await engine.validate('jane@example.org')).mx_found, true);
    assert.deepEqual(atHand, ['gmail.com', 'example.org']);
    assert.deepEqual(mx.asked, ['example.org']);
  });

  it('does no lookup for invalid syntax', async () => {
    const mx = tableResolver({});
    const r = await createEmailEngine({ mx, lists }).validate('not an email');
    assert.equal(r.valid_syntax, false);
    assert.equal(r.deliverability, 'undeliverable');
    assert.equal(r.score, 0);
    assert.deepEqual(mx.asked, []);
  });

  it('suggests a corrected address and looks up the punycode domain', async () => {
    const mx = tableResolver({ 'gmial.com': MX });
    const engine = createEmailEngine({ mx, lists });
    const r = await engine.validate('jane@gmial.com');
    assert.equal(r.did_you_mean, 'jane@gmail.com');
    assert.equal(r.deliverability, 'risky');
    await engine.validate('jane@bücher.de');
    assert.deepEqual(mx.asked, ['gmial.com', 'xn--bcher-kva.de']);
  });

  it('reports implicit MX as mx_found false but not undeliverable', async () => {
    const implicit: MxLookup = { kind: 'implicit', hosts: [{ exchange: 'a.test', preference: 0 }] };
    const r = await createEmailEngine({
      mx: tableResolver({ 'a.test': implicit }),
      lists,
    }).validate('x@a.test');
    assert.equal(r.mx_found, false);
    assert.equal(r.deliverability, 'risky');
  });

  it('maps a DNS timeout to unknown', async () => {
    const mx = tableResolver({ 'slow.test': { kind: 'unknown', reason: 'timeout' } });
    const r = await createEmailEngine({ mx, lists }).validate('info@slow.test');
    assert.equal(r.mx_found, false);
    assert.equal(r.role_based, true);
    assert.notEqual(r.deliverability, 'undeliverable');
  });

  /** A probe that answers every address "no such mailbox" and records what it was asked. */
  function recordingProbe(): { smtp: SmtpProbe; asked: string[][]; modes: string[] } {
    const asked: string[][] = [];
    const modes: string[] = [];
    const smtp: SmtpProbe = {
      probeMany: (targets, options): Promise<SmtpProbeResult[]> => {
        asked.push(targets.map((t) => t.address));
        modes.push(options.mode);
        for (const _ of targets) options.onAnswer?.();
        return Promise.resolve(
          targets.map(() => ({
            verdict: 'undeliverable',
            catchAll: false,
            evidence: {
              reason: 'mailbox_missing',
              host: 'mx.test',
              code: 550,
              enhanced: '5.1.1',
              source: 'live',
              durationMs: 3,
              retryable: false,
            },
          })),
        );
      },
    };
    return { smtp, asked, modes };
  }

  it('probes SMTP only when a mail host exists, with the ASCII address', async () => {
    const { smtp, asked, modes } = recordingProbe();
    const mx = tableResolver({ 'bücher.de': MX, 'xn--bcher-kva.de': MX });
    const engine = createEmailEngine({ mx, lists, smtp });
    const r = await engine.validate('nobody@bücher.de');
    assert.equal(r.deliverability, 'undeliverable');
    await engine.validate('x@nomail.test');
    assert.deepEqual(asked, [['nobody@xn--bcher-kva.de']]);
    assert.deepEqual(modes, ['call']);
  });

  it('asks the probe once for a whole batch, in row order, only for rows with mail hosts', async () => {
    const { smtp, asked, modes } = recordingProbe();
    const mx = tableResolver({ 'a.test': MX, 'b.test': MX });
    const engine = createEmailEngine({ mx, lists, smtp, smtpState: 'per_job' });
    const rows = ['x@a.test', 'not an address', 'y@nomail.test', 'z@b.test'];
    let answered = 0;
    const checks = await engine.checkMany(rows, {
      smtp: true,
      concurrency: 2,
      onRow: () => answered++,
    });
    assert.deepEqual(asked, [['x@a.test', 'z@b.test']]);
    assert.deepEqual(modes, ['batch']);
    assert.equal(answered, rows.length);
    assert.deepEqual(
      checks.map((c) => c.fields.deliverability),
      ['undeliverable', 'undeliverable', 'undeliverable', 'undeliverable'],
    );
    assert.deepEqual(
      checks.map((c) => c.smtp?.evidence.reason ?? null),
      ['mailbox_missing', null, null, 'mailbox_missing'],
    );
    // A job without smtp, and single calls under per_job, ask nothing.
    await engine.checkMany(rows, { smtp: false, concurrency: 2 });
    await engine.validate('x@a.test');
    assert.equal(asked.length, 1);
  });

  it('says in explain why the mailbox was not checked, or what the server said', async () => {
    const mx = tableResolver({ 'a.test': MX });
    const off = await createEmailEngine({ mx, lists }).explain('x@a.test');
    assert.equal(off.mailbox.checked, false);
    assert.equal(off.mailbox.reason, 'probe_off');
    const { smtp } = recordingProbe();
    const perJob = await createEmailEngine({ mx, lists, smtp, smtpState: 'per_job' }).explain(
      'x@a.test',
    );
    assert.equal(perJob.mailbox.reason, 'not_requested');
    const on = createEmailEngine({ mx, lists, smtp });
    const asked = await on.explain('x@a.test');
    assert.deepEqual(
      {
        checked: asked.mailbox.checked,
        verdict: asked.mailbox.verdict,
        reason: asked.mailbox.reason,
        host: asked.mailbox.host,
        reply_code: asked.mailbox.reply_code,
        enhanced_status: asked.mailbox.enhanced_status,
        source: asked.mailbox.source,
        duration_ms: asked.mailbox.duration_ms,
      },
      {
        checked: true,
        verdict: 'undeliverable',
        reason: 'mailbox_missing',
        host: 'mx.test',
        reply_code: 550,
        enhanced_status: '5.1.1',
        source: 'live',
        duration_ms: 3,
      },
    );
    assert.equal(asked.deliverability, 'undeliverable');
    assert.equal((await on.explain('x@nomail.test')).mailbox.reason, 'no_mail_host');
    assert.equal((await on.explain('nope')).mailbox.reason, 'invalid_syntax');
  });

  it('analyzes offline without touching DNS', () => {
    const mx = tableResolver({});
    const r = createEmailEngine({ mx, lists }).analyzeOffline('info@mailinator.com');
    assert.equal(r.disposable, true);
    assert.equal(r.role_based, true);
    assert.deepEqual(mx.asked, []);
  });
});
