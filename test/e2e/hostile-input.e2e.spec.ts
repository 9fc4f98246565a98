import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN_TOKEN,
  parseAnswers,
  rawExchange,
  rawRequest,
  startTestStack,
  type TestStack,
} from '@verity/testing';

/** The error shape: exactly `{ error: { code, message } }` (plus request_id on 500). */
function assertShape(status: number, body: string, expected: number, code: string): void {
  assert.equal(status, expected, body);
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(parsed), ['error']);
  assert.equal(parsed.error.code, code);
  assert.equal(typeof parsed.error.message, 'string');
  assert.ok(parsed.error.message.length > 0);
}

describe('errors raised by Fastify and node:http have the error shape too', () => {
  let stack: TestStack;
  let key: string;

  before(async () => {
    stack = await startTestStack();
    key = (await stack.account(10)).apiKey;
  });
  after(() => stack.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(stack.client.baseUrl + path, {
      headers: { 'x-api-key': key, ...headers },
    });
    return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
  };

  it('a path parameter longer than any id is 404 not_found, not 414', async () => {
    const res = await get(`/v1/batch/${'a'.repeat(300)}`);
    assertShape(res.status, res.body, 404, 'not_found');
    assert.match(res.type ?? '', /^application\/json/);
  });

  it('bad percent-encoding in the path is 400 validation_error', async () => {
    const res = await get('/v1/batch/%E0%A4%A');
    assertShape(res.status, res.body, 400, 'validation_error');
  });

  it('an unknown route is 404 not_found', async () => {
    const res = await get('/v1/nothing-here');
    assertShape(res.status, res.body, 404, 'not_found');
  });

  it('a malformed header line is 400 validation_error', async () => {
    const answer = await rawRequest(stack.client.baseUrl, [
      'GET /v1/ping HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n',
    ]);
    assert.ok(answer);
    assertShape(answer.status, answer.body, 400, 'validation_error');
  });

  it('headers over the size limit are 431 headers_too_large', async () => {
    const answer = await rawRequest(stack.client.baseUrl, [
      `GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    ]);
    assert.ok(answer);
    assertShape(answer.status, answer.body, 431, 'headers_too_large');
  });

  it('JSON endpoints take only application/json; anything else is 400 and charges nothing', async () => {
    const { client } = await stack.account(10);
    const balance = async () => (await client.get('/v1/ping')).body.credits_remaining as number;
    const refused = [
      ['email=a@example.com', 'application/x-www-form-urlencoded'],
      ['{"email":"a@example.com"}', 'text/plain'],
      ['{"email":"a@example.com"}', 'application/json-patch+json'],
      ['{"email":"a@example.com"}', 'application/jsonx'],
      ['{"email":"a@example.com"}', 'text/json'],
    ];
    for (const [body, type] of refused) {
      const res = await client.raw('POST', '/v1/email/validate', body, type);
      assert.equal(res.status, 400, `${type}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, /Content-Type/);
    }
    assert.equal(await balance(), 10);
    const ok = await client.raw(
      'POST',
      '/v1/email/validate',
      '{"email":"a@example.com"}',
      'application/json; charset=utf-8',
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(await balance(), 9);
  });

  it('text PostgreSQL cannot store (NUL, lone surrogates) is 400 naming the field', async () => {
    const { client } = await stack.account(10);
    const refused: [string, unknown, RegExp][] = [
      ['/v1/keys', { name: 'a\u0000b' }, /^name /],
      ['/v1/email/validate', { email: 'a\ud800@example.com' }, /^email /],
      ['/v1/verify', { phone: '+1415\udc00555' }, /^phone /],
      ['/v1/email/validate', { email: 'a@example.com', ['x\u0000']: 1 }, /^x\\u0000 |request body/],
    ];
    for (const [path, body, field] of refused) {
      const res = await client.post(path, body);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, field);
    }
    const admin = await stack.admin.post(
      '/admin/accounts',
      { name: 'Acme\u0000', credits: 1 },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(admin.status, 400, JSON.stringify(admin.body));
    assert.match(admin.body.error.message, /^name /);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 10);
  });

  it('a body nested deeper than 64 levels is 400 on every JSON endpoint, and charges nothing', async () => {
    const { client, accountId, apiKey } = await stack.account(10);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const endpoints: [string, Record<string, string>][] = [
      ['/v1/email/validate', {}],
      ['/v1/phone/validate', {}],
      ['/v1/ip/intel', {}],
      ['/v1/verify', {}],
      ['/v1/keys', {}],
      ['/admin/accounts', admin],
      [`/admin/accounts/${accountId}/credits`, admin],
      ['/console/api/auth/login', { origin: stack.client.baseUrl }],
    ];
    const levels = 10_000;
    const bodies = [
      `{"email":${'['.repeat(levels)}${']'.repeat(levels)}}`,
      `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
    ];
    const answers: string[] = [];
    for (const [path, headers] of endpoints) {
      for (const body of bodies) {
        const res = await fetch(stack.client.baseUrl + path, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
          body,
        });
        const text = await res.text();
        answers.push(`${path} ${res.status}`);
        if (res.status !== 400) continue;
        assertShape(res.status, text, 400, 'validation_error');
        assert.match(text, /deeper than 64 levels/, `${path}: ${text}`);
      }
    }
    assert.deepEqual(
      answers,
      endpoints.flatMap(([path]) => bodies.map(() => `${path} 400`)),
    );
    // 64 levels are within the limit: the schema, not the depth, refuses this one.
    const atLimit = await client.raw(
      'POST',
      '/v1/email/validate',
      `{"email":${'['.repeat(63)}${']'.repeat(63)}}`,
      'application/json',
    );
    assert.equal(atLimit.status, 400);
    assert.doesNotMatch(atLimit.body.error.message, /deeper/);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 10);
  });

  it('ids that cannot exist are 404 before any query', async () => {
    for (const path of [
      '/v1/batch/job_%00',
      '/v1/batch/%00',
      `/v1/batch/job_${'0'.repeat(31)}%00`,
      '/v1/batch/job_%00/download?sig=x',
      '/v1/keys/%00/rotate',
    ]) {
      const res = await fetch(stack.client.baseUrl + path, {
        method: path.endsWith('rotate') ? 'POST' : 'GET',
        headers: { 'x-api-key': key },
      });
      const body = await res.text();
      assert.ok(res.status === 404 || res.status === 403, `${path}: ${res.status} ${body}`);
      assertShape(res.status, body, res.status, res.status === 404 ? 'not_found' : 'forbidden');
    }
  });

  it('a body over BODY_LIMIT_BYTES is 413 payload_too_large', async () => {
    const res = await fetch(`${stack.client.baseUrl}/v1/email/validate`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a'.repeat(128 * 1024) }),
    });
    assertShape(res.status, await res.text(), 413, 'payload_too_large');
  });
});

describe('failed authentication is rate-limited per client address', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startTestStack({
      env: { AUTH_RATE_LIMIT_PER_SECOND: '1', AUTH_RATE_LIMIT_BURST: '5' },
    });
  });
  after(() => stack.close());

  it('answers 429 once the burst of failures is spent, while a known key still works', async () => {
    const { client } = await stack.account(10);
    assert.equal((await client.get('/v1/ping')).status, 200); // now cached: no token needed
    const wellFormedUnknown = 'vrt_live_' + 'Z'.repeat(24);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stack.client
          // A different X-Forwarded-For each time: not trusted without TRUST_PROXY.
          .withKey(i % 2 === 0 ? wellFormedUnknown : `bad-${i}`)
          .get('/v1/ping', { 'x-forwarded-for': `203.0.113.${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.filter((s) => s === 401).length <= 6, statuses.join(','));
    const limited = answers.filter((a) => a.status === 429);
    assert.ok(limited.length >= 24, statuses.join(','));
    assert.equal(limited[0].body.error.code, 'rate_limited');
    assert.deepEqual(Object.keys(limited[0].body), ['error']);
    assert.ok(Number(limited[0].headers.get('retry-after')) >= 1);
    assert.equal((await client.get('/v1/ping')).status, 200);
  });
});

describe('forwarded headers are trusted only from TRUST_PROXY', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startTestStack({
      env: {
        TRUST_PROXY: '127.0.0.1',
        AUTH_RATE_LIMIT_PER_SECOND: '1',
        AUTH_RATE_LIMIT_BURST: '2',
      },
    });
  });
  after(() => stack.close());

  it('takes the client address from X-Forwarded-For sent by a trusted proxy', async () => {
    const bad = stack.client.withKey('bad');
    const from = (ip: string) => bad.get('/v1/ping', { 'x-forwarded-for': ip });
    assert.equal((await from('198.51.100.1')).status, 401);
    assert.equal((await from('198.51.100.1')).status, 401);
    assert.equal((await from('198.51.100.1')).status, 429);
    // Another client behind the same proxy has its own bucket.
    assert.equal((await from('198.51.100.2')).status, 401);
  });
});

describe('TRUST_PROXY as a hop count trusts exactly that many forwarders', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startTestStack({
      env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_SECOND: '1', AUTH_RATE_LIMIT_BURST: '2' },
    });
  });
  after(() => stack.close());

  it('takes the address the one trusted proxy saw, not what the client claims before it', async () => {
    const bad = stack.client.withKey('bad');
    const from = (chain: string) => bad.get('/v1/ping', { 'x-forwarded-for': chain });
    // The client forges the left-most entry each time; the proxy appended 198.51.100.7.
    assert.equal((await from('10.0.0.1, 198.51.100.7')).status, 401);
    assert.equal((await from('10.0.0.2, 198.51.100.7')).status, 401);
    assert.equal((await from('10.0.0.3, 198.51.100.7')).status, 429);
    assert.equal((await from('10.0.0.3, 198.51.100.8')).status, 401);
  });
});

describe('a request arriving while the server shuts down', () => {
  it('is 503 service_unavailable in the error shape', async () => {
    const stack = await startTestStack();
    try {
      const { apiKey } = await stack.account(10);
      // One connection: a request whose body is still arriving keeps the server open, and a
      // second request pipelined behind it is read only once shutdown has begun.
      const body = '{"email":"a@example.com"}';
      const head =
        `POST /v1/email/validate HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const exchange = rawExchange(
        stack.client.baseUrl,
        [
          head + body.slice(0, 5),
          body.slice(5) + `GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${apiKey}\r\n\r\n`,
        ],
        { gapMs: 2_000, waitMs: 20_000 },
      );
      const closing = new Promise<void>((resolve) =>
        setTimeout(() => void stack.app.close().then(resolve, resolve), 500),
      );
      const answers = parseAnswers(await exchange);
      await closing;
      assert.equal(answers.length, 2, JSON.stringify(answers));
      assert.equal(answers[0].status, 200, answers[0].body);
      assertShape(answers[1].status, answers[1].body, 503, 'service_unavailable');
    } finally {
      await stack.close().catch(() => undefined);
    }
  });
});
