// What the email result and the fraud score say when DNS cannot answer, and for special-use
// names that must never reach DNS (RFC 7686 §2, RFC 6761 §6.3–6.4, RFC 6762 §3).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestClient, type TestStack } from '@verity/testing';

interface Reason {
  code: string;
  points: number;
}

const codes = (reasons: Reason[]) => reasons.map((r) => r.code);

describe('email DNS evidence', () => {
  let stack: TestStack;
  let api: TestClient;

  before(async () => {
    // A failure stays cached for the whole file, so the cache assertion does not depend on
    // how fast the calls follow each other.
    stack = await startTestStack({ env: { DNS_FAILURE_TTL_MS: '300000' } });
    api = (await stack.account(1_000)).client;
  });
  after(() => stack.close());

  it('a SERVFAIL is unknown, not "no mail exchanger", and adds no fraud points', async () => {
    const email = await api.post('/v1/email/validate', { email: 'jane@broken.example' });
    assert.equal(email.status, 200);
    assert.equal(email.body.mx_found, false);
    assert.equal(email.body.deliverability, 'unknown');

    const verify = await api.post('/v1/verify?explain=true', { email: 'jane@broken.example' });
    assert.equal(verify.status, 200);
    const reasons = verify.body.reasons as Reason[];
    assert.ok(!codes(reasons).includes('email_no_mx'), JSON.stringify(reasons));
    assert.deepEqual(
      reasons.find((r) => r.code === 'email_dns_unavailable'),
      {
        code: 'email_dns_unavailable',
        description:
          'DNS lookup failed (timeout or SERVFAIL): no evidence about the mail exchanger',
        points: 0,
        signal: 'email',
      },
    );
    assert.ok(!codes(reasons).includes('email_clean'), 'no clean credit for a check not run');
    assert.equal(verify.body.fraud_score, verify.body.fraud_base);
  });

  it('an address whose domain has no mail host still gets email_no_mx', async () => {
    const verify = await api.post('/v1/verify?explain=true', { email: 'jane@nowhere.example' });
    const reasons = verify.body.reasons as Reason[];
    assert.ok(codes(reasons).includes('email_no_mx'), JSON.stringify(reasons));
    assert.ok(!codes(reasons).includes('email_dns_unavailable'));
  });

  it('remembers a failed lookup instead of asking DNS again on every call', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/v1/email/validate', { email: `user${i}@broken.example` });
      assert.equal(res.body.deliverability, 'unknown');
    }
    assert.equal(stack.dns.count('MX', 'broken.example'), 1);
  });

  for (const address of [
    'x@hidden.onion',
    'x@printer.local',
    'x@host.localhost',
    'x@a.invalid',
    'x@localhost',
  ]) {
    it(`answers ${address} without a DNS query: no mail exchanger, undeliverable`, async () => {
      const domain = address.slice(2);
      const email = await api.post('/v1/email/validate', { email: address });
      assert.equal(email.status, 200);
      assert.equal(email.body.valid_syntax, true);
      assert.equal(email.body.mx_found, false);
      assert.equal(email.body.deliverability, 'undeliverable');
      assert.equal(email.body.did_you_mean, null);
      const verify = await api.post('/v1/verify?explain=true', { email: address });
      const reasons = codes(verify.body.reasons as Reason[]);
      assert.ok(reasons.includes('email_special_use_domain'), reasons.join());
      assert.ok(reasons.includes('email_undeliverable'), reasons.join());
      assert.equal(
        stack.dns.queries.filter((q) => q.endsWith(` ${domain}`)).length,
        0,
        stack.dns.queries.join(),
      );
    });
  }

  it('sends .test and .example names to DNS like any other', async () => {
    const res = await api.post('/v1/email/validate', { email: 'x@mail.test' });
    assert.equal(res.status, 200);
    assert.ok(stack.dns.count('MX', 'mail.test') >= 1);
    const verify = await api.post('/v1/verify?explain=true', { email: 'x@mail.test' });
    assert.ok(!codes(verify.body.reasons as Reason[]).includes('email_special_use_domain'));
  });
});
