// Test keys through the HTTP API: every magic input's answer, the offline answers for other
// inputs, and nothing sent to the network (docs/test-mode.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { MAGIC_EMAILS, MAGIC_IPS, MAGIC_PHONES } from '@verity/validation';
import {
  FakeHlrLookupsServer,
  startTestStack,
  type TestClient,
  type TestStack,
} from '@verity/testing';

describe('test keys (single calls)', () => {
  const hlr = new FakeHlrLookupsServer('hlr-key', 'hlr-secret-0123456789');
  let stack: TestStack;
  let live: TestClient;
  let test: TestClient;

  before(async () => {
    const url = await hlr.start();
    stack = await startTestStack({
      env: {
        HLR_PROVIDER: 'hlr-lookups',
        HLR_BASE_URL: url,
        HLR_API_KEY: 'hlr-key',
        HLR_API_SECRET: 'hlr-secret-0123456789',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
      },
    });
    const owner = await stack.account(1_000);
    live = owner.client;
    const key = await stack.app
      .get(ApiKeysService)
      .create(owner.accountId, 'ci', undefined, 'test');
    test = stack.client.withKey(key.key);
  });
  after(async () => {
    await stack.close();
    await hlr.stop();
  });

  it('answers every magic email as documented', async () => {
    for (const [email, answer] of Object.entries(MAGIC_EMAILS)) {
      const res = await test.post('/v1/email/validate', { email });
      assert.equal(res.status, 200, email);
      assert.deepEqual(res.body, { input: email, ...answer, credits_used: 1 }, email);
    }
  });

  it('answers every magic number as documented, with and without hlr', async () => {
    for (const [phone, magic] of Object.entries(MAGIC_PHONES)) {
      const plain = await test.post('/v1/phone/validate', { phone });
      assert.equal(plain.status, 200, phone);
      assert.deepEqual(plain.body, { input: phone, ...magic.fields, hlr: null, credits_used: 1 });
      const looked = await test.post('/v1/phone/validate', { phone, hlr: true });
      assert.equal(looked.status, 200, phone);
      assert.deepEqual(looked.body, {
        input: phone,
        ...magic.fields,
        hlr: magic.hlr,
        score: magic.hlr_score,
        credits_used: 5,
      });
    }
  });

  it('answers every magic IP address as documented', async () => {
    for (const [ip, answer] of Object.entries(MAGIC_IPS)) {
      const res = await test.post('/v1/ip/intel', { ip });
      assert.equal(res.status, 200, ip);
      assert.deepEqual(res.body, { input: ip, ...answer, credits_used: 1 }, ip);
      const explained = await test.post('/v1/ip/intel?explain=true', { ip });
      assert.deepEqual(explained.body.lists, [], ip);
    }
  });

  it('gives verify a stable risk for magic trios, through the fraud model', async () => {
    const low = { email: 'deliverable@example.com', phone: '+15005550006', ip: '192.0.2.1' };
    const high = { email: 'disposable@example.com', phone: '+15005550008', ip: '203.0.113.1' };
    const first = await test.post('/v1/verify', low);
    assert.equal(first.status, 200);
    assert.equal(first.body.risk, 'low');
    assert.deepEqual(first.body.email, {
      input: low.email,
      ...MAGIC_EMAILS[low.email],
      credits_used: 1,
    });
    // The same answer every time; only the call's own request_id differs.
    const again = await test.post('/v1/verify', low);
    assert.notEqual(again.body.request_id, first.body.request_id);
    assert.deepEqual({ ...again.body, request_id: null }, { ...first.body, request_id: null });
    assert.equal((await test.post('/v1/verify', high)).body.risk, 'high');
  });

  it('answers other inputs offline: no DNS query, no HLR request', async () => {
    stack.dns.queries.length = 0;
    const email = await test.post('/v1/email/validate', { email: 'jane@gmail.com' });
    assert.equal(email.status, 200);
    assert.equal(email.body.mx_found, false);
    assert.equal(email.body.deliverability, 'unknown');
    assert.equal(email.body.free_provider, true);
    const typo = await test.post('/v1/email/validate', { email: 'jane@gmial.com' });
    assert.equal(typo.body.did_you_mean, 'jane@gmail.com');
    const verify = await test.post('/v1/verify?explain=true', { email: 'joe@example.com' });
    const codes = (verify.body.reasons as { code: string }[]).map((r) => r.code);
    assert.ok(codes.includes('email_dns_test_key') && !codes.includes('email_no_mx'), codes.join());

    const phone = await test.post('/v1/phone/validate', { phone: '+447911123456', hlr: true });
    assert.equal(phone.status, 200);
    assert.equal(phone.body.valid, true);
    assert.deepEqual(phone.body.hlr, { status: 'unavailable', ported: null, roaming: null });
    const ip = await test.post('/v1/ip/intel', { ip: '8.8.8.8' });
    assert.equal(ip.status, 200);
    assert.equal((await test.post('/v1/ip/intel', { ip: 'nope' })).status, 422);
    await test.post('/v1/verify', { email: 'a@gmail.com', phone: '+447911123456', ip: '1.1.1.1' });

    assert.deepEqual(stack.dns.queries, []);
    assert.deepEqual(hlr.requests, []);

    // The recorders work: the same calls with the live key reach both.
    assert.equal((await live.post('/v1/email/validate', { email: 'jane@gmail.com' })).status, 200);
    const queries: readonly string[] = stack.dns.queries;
    assert.ok(
      queries.some((q) => q.endsWith('gmail.com')),
      queries.join(),
    );
    const livePhone = await live.post('/v1/phone/validate', { phone: '+447911123456', hlr: true });
    assert.equal(livePhone.body.hlr.status, 'active');
    assert.equal(hlr.requests.length, 1);
  });
});
