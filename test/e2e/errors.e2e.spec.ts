import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestClient, type TestStack } from '@verity/testing';

function assertError(
  res: { status: number; body: any },
  status: number,
  code: string,
  message?: RegExp,
): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  if (message) assert.match(res.body.error.message, message);
}

describe('errors: every non-2xx answer has the error shape', () => {
  let stack: TestStack;
  let api: TestClient;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3', BODY_LIMIT_BYTES: '2048' },
    });
    api = (await stack.account(100)).client;
  });
  after(() => stack.close());

  it('400 validation_error names the missing or mistyped field', async () => {
    const fresh = (await stack.account(10)).client;
    assertError(
      await fresh.post('/v1/email/validate', {}),
      400,
      'validation_error',
      /email is required/,
    );
    assertError(
      await fresh.post('/v1/email/validate', { email: 42 }),
      400,
      'validation_error',
      /email must be a string/,
    );
    assertError(
      await fresh.post('/v1/phone/validate', { phone: '+14155552671', hlr: 'yes' }),
      400,
      'validation_error',
      /hlr must be a boolean/,
    );
  });

  it('400 validation_error for malformed JSON, a non-object body and the wrong content type', async () => {
    const fresh = (await stack.account(10)).client;
    assertError(
      await fresh.raw('POST', '/v1/email/validate', '{"email":', 'application/json'),
      400,
      'validation_error',
      /JSON/,
    );
    assertError(
      await fresh.raw('POST', '/v1/email/validate', '["a@b.co"]', 'application/json'),
      400,
      'validation_error',
      /JSON object/,
    );
    assertError(
      await fresh.raw('POST', '/v1/email/validate', 'email=a@b.co', 'text/plain'),
      400,
      'validation_error',
      /Content-Type/,
    );
  });

  it('400 validation_error for verify without any signal and for a bad country_hint', async () => {
    const fresh = (await stack.account(10)).client;
    assertError(
      await fresh.post('/v1/verify', {}),
      400,
      'validation_error',
      /at least one of email, phone or ip/,
    );
    assertError(
      await fresh.post('/v1/phone/validate', { phone: '123', country_hint: 'GBR' }),
      400,
      'validation_error',
      /country_hint/,
    );
  });

  it('401 unauthorized for a missing or invalid key, saying which', async () => {
    assertError(
      await stack.client.post('/v1/email/validate', { email: 'a@example.com' }),
      401,
      'unauthorized',
      /missing/,
    );
    assertError(
      await stack.client
        .withKey('vrt_live_' + 'x'.repeat(24))
        .post('/v1/email/validate', { email: 'a@example.com' }),
      401,
      'unauthorized',
      /invalid/,
    );
    assertError(
      await stack.client.withKey('not-a-key').get('/v1/ping'),
      401,
      'unauthorized',
      /invalid/,
    );
  });

  it('402 insufficient_credits points to the billing page and charges nothing', async () => {
    const { client } = await stack.account(0);
    const res = await client.post('/v1/email/validate', { email: 'a@example.com' });
    assertError(res, 402, 'insufficient_credits', /https:\/\/console\.verity\.test\/billing/);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 0);
  });

  it('404 not_found for unknown routes and unknown ids', async () => {
    assertError(await api.get('/v1/nothing-here'), 404, 'not_found');
    assertError(await stack.client.get('/nope'), 404, 'not_found');
    assertError(
      await api.post('/v1/keys/00000000-0000-4000-8000-000000000000/rotate'),
      404,
      'not_found',
    );
    assertError(await api.delete('/v1/keys/not-a-uuid'), 404, 'not_found');
  });

  it('413 payload_too_large for a body over BODY_LIMIT_BYTES, with the error shape', async () => {
    const fresh = (await stack.account(10)).client;
    const res = await fresh.post('/v1/email/validate', {
      email: 'a'.repeat(4096) + '@example.com',
    });
    assertError(res, 413, 'payload_too_large');
  });

  it('422 unprocessable for an IP that is not an address, and nothing is charged', async () => {
    const { client } = await stack.account(5);
    assertError(
      await client.post('/v1/ip/intel', { ip: '999.1.1.1' }),
      422,
      'unprocessable',
      /IPv4 or IPv6/,
    );
    assertError(await client.post('/v1/verify', { ip: 'localhost' }), 422, 'unprocessable');
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 5);
  });

  it('429 rate_limited with Retry-After and RateLimit headers once the burst is spent', async () => {
    const { client } = await stack.account(100);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await client.get('/v1/ping'));
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    assert.ok(
      ok.length >= 3 && limited.length >= 1,
      `statuses ${answers.map((a) => a.status).join(',')}`,
    );
    assert.equal(ok[0].headers.get('ratelimit-limit'), '3');
    assert.ok(ok[0].headers.get('ratelimit-remaining') !== null);
    assertError(limited[0], 429, 'rate_limited');
    assert.ok(Number(limited[0].headers.get('retry-after')) >= 1);
  });

  it('503 service_unavailable for HLR when no provider is configured, saying so, without Retry-After, nothing charged', async () => {
    const { client } = await stack.account(20);
    const res = await client.post('/v1/phone/validate', { phone: '+447400123456', hlr: true });
    assertError(res, 503, 'service_unavailable');
    assert.match(res.body.error.message, /^No HLR provider is configured on this server/);
    assert.equal(res.headers.get('retry-after'), null);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 20);
  });

  it('500 internal_error carries the request id and never a stack', async () => {
    const { client } = await stack.account(20);
    // A real fault: the ledger table disappears under the running service.
    await stack.dataSource.query('ALTER TABLE credit_ledger RENAME TO credit_ledger_gone');
    try {
      const res = await client.post('/v1/email/validate', { email: 'a@example.com' });
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, 'internal_error');
      assert.equal(res.body.error.request_id, res.headers.get('x-request-id'));
      assert.doesNotMatch(JSON.stringify(res.body), /credit_ledger|at .*\.js|relation/);
    } finally {
      await stack.dataSource.query('ALTER TABLE credit_ledger_gone RENAME TO credit_ledger');
    }
  });
});
