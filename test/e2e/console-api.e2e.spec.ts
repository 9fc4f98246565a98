import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ApiKeysService, KeyActivityRecorder } from '@verity/accounts';
import {
  ADMIN_TOKEN,
  ConsoleClient,
  consoleUser,
  leasesAtRest,
  startTestStack,
  type TestStack,
} from '@verity/testing';

const run = promisify(execFile);
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function sums(stack: TestStack, accountId: string) {
  const [usage] = await stack.dataSource.query(
    `SELECT COALESCE(sum(credits), 0)::bigint AS credits, COALESCE(sum(calls), 0)::bigint AS calls
     FROM usage_hourly WHERE account_id = $1`,
    [accountId],
  );
  const [ledger] = await stack.dataSource.query(
    `SELECT COALESCE(sum(-delta) FILTER (WHERE reason NOT IN ('grant', 'top_up')), 0)::bigint AS spent
     FROM credit_ledger WHERE account_id = $1`,
    [accountId],
  );
  const [account] = await stack.dataSource.query(
    'SELECT credits_balance FROM accounts WHERE id = $1',
    [accountId],
  );
  return {
    usageCredits: Number(usage.credits),
    usageCalls: Number(usage.calls),
    ledgerSpent: Number(ledger.spent),
    balance: Number(account.credits_balance),
  };
}

describe('console API: usage, sessions, CSRF, throttling, tenancy', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        // Three failures per minute: a token comes back every 20 s, far beyond the time the
        // guesses take on a loaded machine, so the right password is still refused at once.
        CONSOLE_LOGIN_WINDOW_SECONDS: '60',
        CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL: '3',
      },
    });
  });
  after(() => stack.close());

  it('usage reconciles with the ledger after a mixed workload (debits, refunds, two keys)', async () => {
    const { accountId, client } = await stack.account(1000);
    const second = await client.post('/v1/keys', { name: 'second' });
    const other = client.withKey(second.body.key);
    const before = await sums(stack, accountId);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        client.post('/v1/email/validate', { email: `u${i}@example.com` }),
      ),
      ...Array.from({ length: 7 }, () => other.post('/v1/ip/intel', { ip: '8.8.8.8' })),
      ...Array.from({ length: 3 }, () => other.post('/v1/verify', { ip: '1.1.1.1' })),
      // HLR is not configured: charged, then refunded (a 503 costs nothing).
      client.post('/v1/phone/validate', { phone: '+14155552671', hlr: true }),
    ]);
    // The calls are paid from this instance's credit lease: at rest it is settled and closed.
    await leasesAtRest(stack.dataSource, accountId);
    const after = await sums(stack, accountId);
    assert.equal(before.balance - after.balance, 20 + 7 + 9);
    assert.equal(after.usageCredits, after.ledgerSpent);
    assert.equal(after.usageCredits, before.balance - after.balance);
    assert.equal(after.usageCalls, 30);
    const perKey = await stack.dataSource.query(
      `SELECT k.name, u.operation, sum(u.calls)::int AS calls FROM usage_hourly u
       JOIN api_keys k ON k.id = u.key_id WHERE u.account_id = $1 GROUP BY 1, 2
       HAVING sum(u.calls) <> 0 ORDER BY 1, 2`,
      [accountId],
    );
    assert.deepEqual(perKey, [
      { name: 'default', operation: 'email_validate', calls: 20 },
      { name: 'second', operation: 'ip_intel', calls: 7 },
      { name: 'second', operation: 'verify', calls: 3 },
    ]);
  });

  it('last_used_at is written by the periodic flush, not per call', async () => {
    const { accountId, client } = await stack.account(10);
    await client.get('/v1/ping');
    const keys = stack.app.get(ApiKeysService);
    assert.equal((await keys.list(accountId))[0].last_used_at, null);
    await stack.app.get(KeyActivityRecorder).flush();
    assert.notEqual((await keys.list(accountId))[0].last_used_at, null);
  });

  it('sign-in link is single use; password login, logout and sign out everywhere end sessions', async () => {
    const created = await stack.client.post(
      '/admin/accounts',
      { name: 'Links', credits: 5, owner_email: 'Owner@Links.test' },
      bearer,
    );
    const first = new ConsoleClient(stack.client.baseUrl);
    const signed = await first.redeem(created.body.sign_in_url);
    assert.equal(signed.status, 200);
    assert.equal(signed.body.email, 'owner@links.test');
    assert.equal(signed.body.password_set, false);
    assert.equal(signed.body.hlr_configured, false); // HLR_PROVIDER=none
    const setCookie = signed.headers.get('set-cookie')!;
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    assert.match(setCookie, /Path=\/console/);
    const reuse = await new ConsoleClient(stack.client.baseUrl).redeem(created.body.sign_in_url);
    assert.equal(reuse.status, 401);
    assert.equal(reuse.body.error.code, 'unauthorized');

    const short = await first.post('/auth/password', { password: 'short' });
    assert.equal(short.status, 400);
    assert.equal(
      (await first.post('/auth/password', { password: 'long enough pass' })).status,
      200,
    );
    const [row] = await stack.dataSource.query(
      `SELECT password_hash FROM console_users WHERE email = 'owner@links.test'`,
    );
    assert.match(row.password_hash, /^scrypt\$/);
    assert.doesNotMatch(row.password_hash, /long enough pass/);

    const second = new ConsoleClient(stack.client.baseUrl);
    assert.equal((await second.login('owner@links.test', 'long enough pass')).status, 200);
    assert.equal((await first.post('/auth/logout')).status, 204);
    assert.equal((await first.get('/session')).status, 401);
    assert.equal((await second.get('/session')).status, 200);
    const third = new ConsoleClient(stack.client.baseUrl);
    await third.login('owner@links.test', 'long enough pass');
    assert.equal((await third.post('/auth/logout-everywhere')).status, 204);
    assert.equal((await second.get('/session')).status, 401);
    const stored = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM console_sessions s JOIN console_users u ON u.id = s.user_id
       WHERE u.email = 'owner@links.test'`,
    );
    assert.equal(stored[0].n, 0);
  });

  it('refuses a state change without the same Origin or without the CSRF token', async () => {
    const { browser, accountId } = await consoleUser(stack, 5, 'csrf@example.test');
    const foreign = await browser.post('/keys', { name: 'x' }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, 'forbidden');
    const noToken = await browser.post('/keys', { name: 'x' }, { 'x-csrf-token': '' });
    assert.equal(noToken.status, 403);
    const ok = await browser.post('/keys', { name: 'x' });
    assert.equal(ok.status, 201);
    const keys = await stack.dataSource.query(
      `SELECT name FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY name`,
      [accountId],
    );
    assert.deepEqual(
      keys.map((k: { name: string }) => k.name),
      ['default', 'x'],
    );
  });

  it('never takes an API key: /console/api needs the session', async () => {
    const { apiKey } = await stack.account(5);
    const res = await fetch(`${stack.client.baseUrl}/console/api/keys`, {
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).error.code, 'unauthorized');
  });

  it('throttles a browser’s wrong passwords with 429 and Retry-After, even sent at once; the right one works after the window', async () => {
    const { browser } = await consoleUser(stack, 5, 'throttle@example.test');
    await browser.post('/auth/logout');
    // Sent at once: simultaneous guesses must not slip under the limit (three per window), and
    // a slow machine cannot spread them past the window.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => browser.login('throttle@example.test', 'wrong password')),
    );
    const refused = answers.filter((a) => a.status === 429);
    assert.deepEqual(answers.map((a) => a.status).sort(), [401, 401, 401, 429, 429, 429]);
    assert.equal(
      answers.find((a) => a.status === 401)!.body.error.message,
      'email or password is incorrect',
    );
    assert.ok(Number(refused[0].headers.get('retry-after')) >= 1);
    const unknown = await browser.login('nobody@example.test', 'wrong password');
    assert.equal(unknown.body.error.message, answers[0].body.error.message);
    const blocked = await browser.login('throttle@example.test', 'correct horse battery');
    assert.equal(blocked.status, 429);
    await sleep(Number(blocked.headers.get('retry-after')) * 1000 + 500);
    assert.equal(
      (await browser.login('throttle@example.test', 'correct horse battery')).status,
      200,
    );
  });

  it('the billing ledger shows lease movements without the API instance behind them', async () => {
    const { browser, accountId, apiKey } = await consoleUser(stack, 5_000, 'leases@billing.test');
    const client = stack.client.withKey(apiKey);
    for (let i = 0; i < 3; i++)
      assert.equal((await client.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
    const ledger = await browser.get('/ledger');
    const leaseRows = ledger.body.data.filter((e: any) => e.reason.startsWith('lease_'));
    assert.ok(leaseRows.length > 0, JSON.stringify(ledger.body.data));
    assert.ok(leaseRows.every((e: any) => e.reference === null));
    // The instance stays recorded for operators.
    const [row] = await stack.dataSource.query(
      `SELECT reference FROM credit_ledger WHERE account_id = $1 AND reason = 'lease_reserved' LIMIT 1`,
      [accountId],
    );
    assert.ok(typeof row.reference === 'string' && row.reference.length > 0);
  });

  it('is tenant-scoped: ids of another account answer 404 and lists stay separate', async () => {
    const a = await consoleUser(stack, 50, 'a@tenants.test');
    const b = await consoleUser(stack, 50, 'b@tenants.test');
    const aKeys = await a.browser.get('/keys');
    const aKey = aKeys.body.data[0].id;
    assert.equal((await b.browser.post(`/keys/${aKey}/rotate`)).status, 404);
    assert.equal((await b.browser.delete(`/keys/${aKey}`)).status, 404);
    assert.equal((await b.browser.get(`/usage?key_id=${aKey}`)).body.data.length, 0);
    const bLedger = await b.browser.get('/ledger');
    assert.ok(bLedger.body.data.every((e: any) => e.balance_after === 50));
    assert.notEqual((await b.browser.get('/keys')).body.data[0].id, aKey);
    assert.equal((await b.browser.get('/batch/not-a-job')).status, 404);
  });

  it('`verity users create` prints a one-time link that signs in', async () => {
    const { accountId } = await stack.account(1, 'cli');
    const { stdout } = await run(
      process.execPath,
      [
        'bin/verity.js',
        'users',
        'create',
        '--account',
        accountId,
        '--email',
        'cli@example.test',
        '--json',
      ],
      { env: { ...process.env, DATABASE_URL: stack.database.url, LOG_LEVEL: 'silent' } },
    );
    const { sign_in_url } = JSON.parse(stdout);
    const browser = new ConsoleClient(stack.client.baseUrl);
    const res = await browser.redeem(sign_in_url);
    assert.equal(res.status, 200);
    assert.equal(res.body.account_id, accountId);
  });

  it('serves the console: hashed assets cached for a year, pages never cached, API 404s as JSON', async () => {
    const page = await fetch(`${stack.client.baseUrl}/console/billing`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    const asset = /src="(\/console\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)![1];
    const js = await fetch(stack.client.baseUrl + asset);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('cache-control')!, /max-age=31536000.*immutable/);
    const missing = await fetch(`${stack.client.baseUrl}/console/api/nothing-here`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as any).error.code, 'not_found');
  });
});
