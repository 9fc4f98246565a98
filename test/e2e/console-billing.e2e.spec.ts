import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobLifecycle } from '@verity/batch';
import {
  ADMIN_TOKEN,
  CONSOLE_PASSWORD,
  ConsoleClient,
  consoleUser,
  startTestStack,
  type TestStack,
} from '@verity/testing';

const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
const HOUR_MS = 3_600_000;

/** The start of the current UTC hour or day, as the statement names a period. */
function periodStart(ms: number): string {
  return new Date(Math.floor(Date.now() / ms) * ms).toISOString();
}

/** The statement's call rows summed per key name and operation, by key name. */
function callTotals(
  rows: any[],
): { key_name: string; operation: string; calls: number; credits: number }[] {
  const totals = new Map<
    string,
    { key_name: string; operation: string; calls: number; credits: number }
  >();
  for (const row of rows) {
    const id = `${row.key_name}/${row.operation}`;
    const total = totals.get(id) ?? {
      key_name: row.key_name,
      operation: row.operation,
      calls: 0,
      credits: 0,
    };
    total.calls += row.calls;
    total.credits += row.credits;
    totals.set(id, total);
  }
  return [...totals.values()].sort((a, b) => a.key_name.localeCompare(b.key_name));
}

describe('console billing: what an account bought and spent', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
    });
  });
  after(() => stack.close());

  it('groups calls per key and operation, lists top-ups and a batch charge with its refund, never lease movements', async () => {
    const { browser, accountId, apiKey } = await consoleUser(
      stack,
      5_000,
      'statement@billing.test',
    );
    const client = stack.client.withKey(apiKey);
    // The calls may straddle an hour or day boundary: periods are checked against both ends.
    const daysSpanned = [periodStart(24 * HOUR_MS)];
    const hoursSpanned = [periodStart(HOUR_MS)];
    const second = await client.post('/v1/keys', { name: 'second' });
    const other = client.withKey(second.body.key);
    for (let i = 0; i < 3; i++)
      assert.equal((await client.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await other.post('/v1/email/validate', { email: `u${i}@example.com` })).status,
        200,
      );
    const topUp = await stack.client.post(
      `/admin/accounts/${accountId}/credits`,
      { amount: 1_000 },
      bearer,
    );
    assert.equal(topUp.status, 200);
    const jobs = stack.app.get(JobLifecycle);
    const jobId = 'job_5a7e0000000000000000000000000001';
    await jobs.create({
      id: jobId,
      accountId,
      keyId: null,
      type: 'email',
      totalRows: 4,
      fileName: 'march-leads.csv',
      uploadKey: `uploads/${jobId}.csv`,
      webhookUrl: null,
      baseUrl: stack.client.baseUrl,
      idempotencyKey: null,
      requestHash: null,
    });
    assert.notEqual(await jobs.fail(jobId, 'the upload is gone'), null);

    const statement = await browser.get('/statement');
    assert.equal(statement.status, 200, JSON.stringify(statement.body));
    assert.equal(statement.body.granularity, 'day');
    daysSpanned.push(periodStart(24 * HOUR_MS));
    assert.ok(statement.body.calls.every((c: any) => daysSpanned.includes(c.period)));
    assert.ok(statement.body.calls.every((c: any) => typeof c.key_id === 'string'));
    assert.deepEqual(callTotals(statement.body.calls), [
      { key_name: 'default', operation: 'ip_intel', calls: 3, credits: 3 },
      { key_name: 'second', operation: 'email_validate', calls: 2, credits: 2 },
    ]);
    assert.deepEqual(
      statement.body.credits_added.map((c: any) => [c.reason, c.credits]),
      [
        ['top_up', 1_000],
        ['grant', 5_000],
      ],
    );
    assert.deepEqual(
      statement.body.batch_jobs.map((j: any) => [
        j.job_id,
        j.file_name,
        j.type,
        j.charged,
        j.refunded,
      ]),
      [[jobId, 'march-leads.csv', 'email', 4, 4]],
    );
    // The calls were paid from a credit lease: the raw ledger has its movements, the statement not.
    const raw = await browser.get('/ledger?limit=100');
    assert.ok(raw.body.data.some((e: any) => e.reason.startsWith('lease_')));
    assert.doesNotMatch(JSON.stringify(statement.body), /lease/);

    const hourly = await browser.get('/statement?granularity=hour');
    assert.equal(hourly.status, 200);
    hoursSpanned.push(periodStart(HOUR_MS));
    assert.deepEqual(callTotals(hourly.body.calls), callTotals(statement.body.calls));
    assert.ok(hourly.body.calls.every((c: any) => hoursSpanned.includes(c.period)));

    // Another account sees none of it.
    const stranger = await consoleUser(stack, 10, 'stranger@billing.test');
    const theirs = await stranger.browser.get('/statement');
    assert.deepEqual(theirs.body.calls, []);
    assert.deepEqual(theirs.body.batch_jobs, []);
    assert.deepEqual(
      theirs.body.credits_added.map((c: any) => c.credits),
      [10],
    );
  });

  it('pages back period by period until the account began, and refuses bad parameters', async () => {
    const { browser } = await consoleUser(stack, 50, 'pages@billing.test');
    const first = await browser.get('/statement?granularity=hour');
    assert.equal(first.status, 200);
    assert.equal(
      new Date(first.body.to).getTime() - new Date(first.body.from).getTime(),
      24 * HOUR_MS,
    );
    // The account was created within this page: nothing older.
    assert.equal(first.body.next_before, null);
    const older = await browser.get(
      `/statement?granularity=hour&before=${encodeURIComponent(first.body.from)}`,
    );
    assert.equal(older.status, 200);
    assert.equal(older.body.to, first.body.from);
    assert.deepEqual(older.body.credits_added, []);
    for (const query of ['granularity=week', 'before=yesterday', 'before=2026-13-45T00:00:00Z']) {
      const bad = await browser.get(`/statement?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error.code, 'validation_error');
    }
  });

  it('tells the Billing page whether this server has the admin API to add credits', async () => {
    const { browser } = await consoleUser(stack, 5, 'admin-api@billing.test');
    assert.equal((await browser.get('/overview')).body.admin_api, true);
    const closed = await startTestStack({ database: stack.database, env: { ADMIN_TOKEN: '' } });
    try {
      const there = new ConsoleClient(closed.client.baseUrl);
      assert.equal((await there.login('admin-api@billing.test', CONSOLE_PASSWORD)).status, 200);
      assert.equal((await there.get('/overview')).body.admin_api, false);
    } finally {
      await closed.close();
    }
  });
});
