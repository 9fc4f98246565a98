import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { consoleUser, startTestStack, type TestStack, type TestClient } from '@verity/testing';

/** Everything a call could change in the account's money: balance, ledger, leases, usage. */
async function books(stack: TestStack, accountId: string) {
  const [row] = await stack.dataSource.query(
    `SELECT a.credits_balance::int AS balance,
            (SELECT count(*)::int FROM credit_ledger WHERE account_id = a.id) AS ledger,
            (SELECT count(*)::int FROM credit_leases WHERE account_id = a.id) AS leases,
            (SELECT count(*)::int FROM usage_hourly WHERE account_id = a.id) AS usage
     FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  return row as { balance: number; ledger: number; leases: number; usage: number };
}

/** A client sending a new test key of the account. */
async function testKey(stack: TestStack, accountId: string): Promise<TestClient> {
  const keys = stack.app.get(ApiKeysService);
  const created = await keys.create(accountId, 'ci', undefined, 'test');
  assert.match(created.key, /^vrt_test_/);
  return stack.client.withKey(created.key);
}

/** One call of every operation a single call can be charged for. */
const CALLS: { path: string; body: object; credits: number }[] = [
  { path: '/v1/email/validate', body: { email: 'a@example.com' }, credits: 1 },
  { path: '/v1/phone/validate', body: { phone: '+14155552671' }, credits: 1 },
  { path: '/v1/ip/intel', body: { ip: '8.8.8.8' }, credits: 1 },
  { path: '/v1/verify', body: { email: 'a@example.com', ip: '8.8.8.8' }, credits: 3 },
];

describe('test keys: single calls are free and counted apart', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
    });
  });
  after(() => stack.close());

  it('leave balance, ledger, leases and usage untouched and report the live credits_used', async () => {
    // Above CREDIT_LEASE_MIN_BALANCE: a live call here would reserve a lease.
    const { accountId, client } = await stack.account(5_000);
    const test = await testKey(stack, accountId);
    const before = await books(stack, accountId);
    for (const call of CALLS) {
      const res = await test.post(call.path, call.body);
      assert.equal(res.status, 200, `${call.path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.credits_used, call.credits, call.path);
    }
    assert.deepEqual(await books(stack, accountId), before);
    assert.equal((await test.get('/v1/ping')).body.credits_remaining, 5_000);
    // The same call with the live key is charged.
    assert.equal((await client.post(CALLS[0].path, CALLS[0].body)).status, 200);
    assert.notDeepEqual(await books(stack, accountId), before);
  });

  it('answers the same validation errors as a live key, free', async () => {
    const { accountId, client } = await stack.account(5);
    const test = await testKey(stack, accountId);
    const before = await books(stack, accountId);
    const res = await test.post('/v1/email/validate', {});
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_error');
    assert.deepEqual(res.body, (await client.post('/v1/email/validate', {})).body);
    assert.deepEqual(await books(stack, accountId), before);
  });

  it('at balance 0: 200 with a test key, 402 with a live key', async () => {
    const { accountId, client } = await stack.account(0);
    const test = await testKey(stack, accountId);
    for (const call of CALLS) {
      const res = await test.post(call.path, call.body);
      assert.equal(res.status, 200, `${call.path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.credits_used, call.credits);
      const live = await client.post(call.path, call.body);
      assert.equal(live.status, 402, call.path);
      assert.equal(live.body.error.code, 'insufficient_credits');
    }
    assert.deepEqual(await books(stack, accountId), {
      balance: 0,
      ledger: 0,
      leases: 0,
      usage: 0,
    });
  });

  it('rate-limits a test key in its own bucket', async () => {
    const limited = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' },
      database: stack.database,
    });
    try {
      const { accountId, client } = await limited.account(100);
      const test = await testKey(limited, accountId);
      let status = 200;
      for (let i = 0; i < 10 && status === 200; i++) status = (await test.get('/v1/ping')).status;
      assert.equal(status, 429);
      // The live key's bucket is untouched.
      assert.equal((await client.get('/v1/ping')).status, 200);
    } finally {
      await limited.close();
    }
  });

  it('the console shows test calls apart from live usage', async () => {
    const { browser, accountId, apiKey } = await consoleUser(stack, 100, 'usage@test-mode.test');
    const live = stack.client.withKey(apiKey);
    const test = await testKey(stack, accountId);
    assert.equal((await live.post('/v1/email/validate', { email: 'a@example.com' })).status, 200);
    for (let i = 0; i < 3; i++)
      assert.equal((await test.post('/v1/email/validate', { email: 'a@example.com' })).status, 200);
    assert.equal((await test.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);

    const usage = await browser.get('/usage');
    assert.equal(usage.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(usage.body.data, [
      { day: today, operation: 'email_validate', calls: 1, credits: 1 },
    ]);
    assert.deepEqual(usage.body.test_calls, [
      { day: today, operation: 'email_validate', calls: 3, credits: 0 },
      { day: today, operation: 'ip_intel', calls: 1, credits: 0 },
    ]);
    const [{ id: testKeyId }] = await stack.dataSource.query(
      `SELECT id FROM api_keys WHERE account_id = $1 AND mode = 'test'`,
      [accountId],
    );
    const ofKey = await browser.get(`/usage?key_id=${testKeyId}`);
    assert.deepEqual(ofKey.body.data, []);
    assert.equal(ofKey.body.test_calls.length, 2);
    assert.equal((await books(stack, accountId)).balance, 99);
  });
});
