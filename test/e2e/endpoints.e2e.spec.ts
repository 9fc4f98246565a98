import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestClient, type TestStack } from '@verity/testing';

const EMAIL_FIELDS = [
  'input',
  'valid_syntax',
  'mx_found',
  'disposable',
  'role_based',
  'free_provider',
  'did_you_mean',
  'deliverability',
  'score',
  'credits_used',
];
const PHONE_FIELDS = [
  'input',
  'valid',
  'e164',
  'country',
  'line_type',
  'carrier',
  'hlr',
  'score',
  'credits_used',
];
const IP_FIELDS = [
  'input',
  'country',
  'city',
  'asn',
  'asn_org',
  'vpn',
  'proxy',
  'tor',
  'datacenter',
  'abuse_score',
  'credits_used',
];

describe('single-call endpoints (contract shapes)', () => {
  let stack: TestStack;
  let api: TestClient;

  before(async () => {
    stack = await startTestStack();
    api = (await stack.account(1_000)).client;
  });
  after(() => stack.close());

  it('POST /v1/email/validate returns exactly EmailResult', async () => {
    const res = await api.post('/v1/email/validate', { email: 'jane.doe@example.com' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [...EMAIL_FIELDS].sort());
    assert.equal(res.body.input, 'jane.doe@example.com');
    assert.equal(res.body.valid_syntax, true);
    assert.equal(res.body.mx_found, true);
    assert.equal(res.body.credits_used, 1);
    assert.ok(
      ['deliverable', 'risky', 'undeliverable', 'unknown'].includes(res.body.deliverability),
    );
    assert.ok(Number.isInteger(res.body.score) && res.body.score >= 0 && res.body.score <= 100);
  });

  it('flags a disposable address and suggests a typo fix', async () => {
    const disposable = await api.post('/v1/email/validate', { email: 'temp@mailinator.com' });
    assert.equal(disposable.body.disposable, true);
    const typo = await api.post('/v1/email/validate', { email: 'jane@gmial.com' });
    assert.equal(typo.body.did_you_mean, 'jane@gmail.com');
    const invalid = await api.post('/v1/email/validate', { email: 'not an email' });
    assert.equal(invalid.body.valid_syntax, false);
    assert.equal(invalid.body.deliverability, 'undeliverable');
  });

  it('POST /v1/phone/validate returns exactly PhoneResult with hlr null offline', async () => {
    const res = await api.post('/v1/phone/validate', { phone: '+447400123456' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [...PHONE_FIELDS].sort());
    assert.equal(res.body.valid, true);
    assert.equal(res.body.e164, '+447400123456');
    assert.equal(res.body.country, 'GB');
    assert.equal(res.body.line_type, 'mobile');
    assert.equal(res.body.hlr, null);
    assert.equal(res.body.credits_used, 1);
  });

  it('parses national formats with country_hint', async () => {
    const res = await api.post('/v1/phone/validate', { phone: '07400 123456', country_hint: 'gb' });
    assert.equal(res.body.e164, '+447400123456');
    const bad = await api.post('/v1/phone/validate', { phone: '12', country_hint: 'GB' });
    assert.equal(bad.status, 200);
    assert.equal(bad.body.valid, false);
    assert.equal(bad.body.e164, null);
  });

  it('POST /v1/verify parses its phone with country_hint, checked as the phone call checks it', async () => {
    const plain = await api.post('/v1/verify', { phone: '07400 123456' });
    assert.equal(plain.status, 200);
    assert.equal(plain.body.phone.valid, false);
    const hinted = await api.post('/v1/verify', { phone: '07400 123456', country_hint: 'gb' });
    assert.equal(hinted.status, 200);
    assert.equal(hinted.body.phone.valid, true);
    assert.equal(hinted.body.phone.e164, '+447400123456');
    const bad = await api.post('/v1/verify', { phone: '07400 123456', country_hint: 'GBR' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'validation_error');
    assert.match(bad.body.error.message, /country_hint/);
  });

  it('POST /v1/ip/intel returns exactly IpResult', async () => {
    const res = await api.post('/v1/ip/intel', { ip: '8.8.8.8' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [...IP_FIELDS].sort());
    assert.equal(res.body.asn, 15169);
    assert.equal(res.body.credits_used, 1);
    const v6 = await api.post('/v1/ip/intel', { ip: '2001:4860:4860::8888' });
    assert.equal(v6.status, 200);
  });

  it('POST /v1/ip/intel?explain=true adds each open-data list: state, age, whether it matched', async () => {
    const res = await api.post('/v1/ip/intel?explain=true', { ip: '8.8.8.8' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [...IP_FIELDS, 'lists'].sort());
    assert.equal(res.body.credits_used, 1);
    const lists = res.body.lists as { kind: string; source: string; status: string }[];
    // The test stack never downloads: no Tor list, and the answer says so.
    const tor = lists.find((l) => l.source === 'tor-exits');
    assert.deepEqual(tor, {
      kind: 'tor',
      source: 'tor-exits',
      status: 'missing',
      age_seconds: null,
      matched: false,
    });
    assert.ok(lists.some((l) => l.kind === 'datacenter' && l.status !== 'missing'));
  });

  it('POST /v1/verify returns only the supplied nested results and costs 3', async () => {
    const res = await api.post('/v1/verify', { email: 'jane.doe@example.com', ip: '8.8.8.8' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'credits_used',
      'email',
      'fraud_score',
      'ip',
      'request_id',
      'risk',
    ]);
    assert.equal(res.body.credits_used, 3);
    assert.equal(res.body.email.credits_used, 1);
    assert.equal(res.body.ip.credits_used, 1);
    assert.ok(['low', 'medium', 'high'].includes(res.body.risk));
  });

  it('adds reasons only with ?explain=true, and they add up to the score', async () => {
    const res = await api.post('/v1/verify?explain=true', {
      email: 'temp@mailinator.com',
      phone: '+447400123456',
    });
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body.reasons) && res.body.reasons.length > 0);
    const total =
      res.body.fraud_base +
      res.body.reasons.reduce((s: number, r: { points: number }) => s + r.points, 0);
    assert.equal(res.body.fraud_score, Math.max(0, Math.min(100, total)));
  });

  it('GET /v1/ping reports account, key name and credits, free of charge', async () => {
    const { client } = await stack.account(42, 'ping-co');
    const first = await client.get('/v1/ping');
    const second = await client.get('/v1/ping');
    assert.equal(first.status, 200);
    assert.equal(first.body.account.name, 'ping-co');
    assert.equal(first.body.key.name, 'default');
    assert.equal(first.body.credits_remaining, 42);
    assert.equal(second.body.credits_remaining, 42);
    assert.equal(first.body.credits_used, 0);
  });

  it('serves the OpenAPI document and docs page without a key', async () => {
    const doc = await stack.client.get('/v1/openapi.json');
    assert.equal(doc.status, 200);
    assert.match(doc.body.openapi, /^3\./);
    for (const path of [
      '/v1/email/validate',
      '/v1/phone/validate',
      '/v1/ip/intel',
      '/v1/verify',
      '/v1/ping',
      '/v1/keys',
      '/v1/keys/{id}/rotate',
    ]) {
      assert.ok(doc.body.paths[path], `missing ${path}`);
    }
    const ok =
      doc.body.paths['/v1/email/validate'].post.responses['200'].content['application/json'].schema;
    assert.deepEqual(ok, { $ref: '#/components/schemas/EmailResult' });
    const schema = doc.body.components.schemas.EmailResult;
    // EmailResult's fields, plus `mailbox`, added in v1 and only present with ?explain=true.
    assert.deepEqual(Object.keys(schema.properties).sort(), [...EMAIL_FIELDS, 'mailbox'].sort());
    assert.ok(!schema.required.includes('mailbox'));
    const page = await stack.client.get('/v1/docs');
    assert.equal(page.status, 200);
    assert.match(String(page.body), /swagger/i);
  });

  it('answers health and readiness probes', async () => {
    assert.equal((await stack.client.get('/healthz')).status, 200);
    const ready = await stack.client.get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
    for (const check of [
      'database',
      'row_bus',
      'job_queue',
      'blob_store',
      'rate_limit_store',
      'data_sets',
    ]) {
      assert.equal(ready.body.checks[check]?.ok, true, `readiness check ${check}`);
    }
    const sources = ready.body.checks.data_sets.detail as { id: string; status: string }[];
    assert.ok(sources.some((s) => s.id === 'city-db' && s.status === 'loaded'));
  });
});
