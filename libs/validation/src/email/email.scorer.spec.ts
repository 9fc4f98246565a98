import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scoreEmail, type EmailSignals } from './email.scorer';
import type { SmtpProbeResult, SmtpVerdict } from './email.ports';

const base: EmailSignals = {
  validSyntax: true,
  mx: { kind: 'mx', hosts: [{ exchange: 'mx.example.com', preference: 10 }] },
  smtp: null,
  disposable: false,
  roleBased: false,
  freeProvider: false,
  typoSuggested: false,
};

/** A probe's result as the SMTP adapter gives it, evidence included. */
function probed(verdict: SmtpVerdict, catchAll: boolean): SmtpProbeResult {
  const reason =
    verdict === 'deliverable'
      ? 'accepted'
      : verdict === 'undeliverable'
        ? 'mailbox_missing'
        : 'timeout';
  return {
    verdict,
    catchAll,
    evidence: {
      reason,
      host: 'mx.test',
      code: null,
      enhanced: null,
      source: 'live',
      durationMs: 1,
      retryable: false,
    },
  };
}

describe('scoreEmail', () => {
  it('scores a clean address with MX as deliverable 100', () => {
    assert.deepEqual(scoreEmail(base), { deliverability: 'deliverable', score: 100 });
  });

  it('makes invalid syntax undeliverable with score 0', () => {
    assert.deepEqual(scoreEmail({ ...base, validSyntax: false, mx: null }), {
      deliverability: 'undeliverable',
      score: 0,
    });
  });

  it('makes null MX and no mail host undeliverable', () => {
    assert.equal(scoreEmail({ ...base, mx: { kind: 'null_mx' } }).deliverability, 'undeliverable');
    const noMail = scoreEmail({ ...base, mx: { kind: 'no_mail' } });
    assert.equal(noMail.deliverability, 'undeliverable');
    assert.ok(noMail.score <= 10);
  });

  it('never makes a DNS failure undeliverable', () => {
    const r = scoreEmail({ ...base, mx: { kind: 'unknown', reason: 'timeout' } });
    assert.equal(r.deliverability, 'unknown');
    assert.equal(r.score, 60);
  });

  it('leans risky for disposable, role, typo, implicit MX and catch-all', () => {
    const cases: Partial<EmailSignals>[] = [
      { disposable: true },
      { roleBased: true },
      { typoSuggested: true },
      { mx: { kind: 'implicit', hosts: [{ exchange: 'example.com', preference: 0 }] } },
      { smtp: probed('deliverable', true) },
    ];
    for (const c of cases) {
      const r = scoreEmail({ ...base, ...c });
      assert.equal(r.deliverability, 'risky', JSON.stringify(c));
      assert.ok(r.score >= 20 && r.score <= 69, JSON.stringify(c));
    }
  });

  it('follows the SMTP verdict', () => {
    const smtp = (verdict: 'deliverable' | 'undeliverable' | 'unknown') =>
      scoreEmail({ ...base, smtp: probed(verdict, false) }).deliverability;
    assert.equal(smtp('deliverable'), 'deliverable');
    assert.equal(smtp('undeliverable'), 'undeliverable');
    assert.equal(smtp('unknown'), 'unknown');
  });

  it('takes a little off for free providers', () => {
    assert.deepEqual(scoreEmail({ ...base, freeProvider: true }), {
      deliverability: 'deliverable',
      score: 95,
    });
  });
});
