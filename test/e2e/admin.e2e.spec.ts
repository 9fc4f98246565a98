import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ADMIN_TOKEN, startTestStack, type TestStack } from '@verity/testing';

const run = promisify(execFile);
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('admin API and CLI', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack();
  });
  after(() => stack.close());

  it('creates an account whose key works, and adds credits', async () => {
    const created = await stack.client.post(
      '/admin/accounts',
      { name: 'Acme', credits: 25 },
      bearer,
    );
    assert.equal(created.status, 201);
    assert.match(created.body.account_id, /^[0-9a-f-]{36}$/);
    assert.match(created.body.api_key, /^vrt_live_[0-9A-Za-z]{24}$/);
    const client = stack.client.withKey(created.body.api_key);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 25);

    const topped = await stack.client.post(
      `/admin/accounts/${created.body.account_id}/credits`,
      { amount: 75 },
      bearer,
    );
    assert.equal(topped.status, 200);
    assert.equal(topped.body.credits_balance, 100);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 100);
  });

  it('refuses a missing or wrong token, and validates bodies', async () => {
    assert.equal(
      (await stack.client.post('/admin/accounts', { name: 'x', credits: 1 })).status,
      401,
    );
    const wrong = await stack.client.post(
      '/admin/accounts',
      { name: 'x', credits: 1 },
      { authorization: 'Bearer nope' },
    );
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'unauthorized');
    const bad = await stack.client.post('/admin/accounts', { name: 'x', credits: -5 }, bearer);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /credits/);
    const unknown = await stack.client.post(
      '/admin/accounts/00000000-0000-4000-8000-000000000000/credits',
      { amount: 1 },
      bearer,
    );
    assert.equal(unknown.status, 404);
  });

  it('does not exist when ADMIN_TOKEN is unset', async () => {
    const closed = await startTestStack({ database: stack.database, env: { ADMIN_TOKEN: '' } });
    try {
      const res = await closed.client.post('/admin/accounts', { name: 'x', credits: 1 }, bearer);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'not_found');
    } finally {
      await closed.close();
    }
  });

  it('`verity accounts create --json` creates an account with working key', async () => {
    const { stdout } = await run(
      process.execPath,
      ['bin/verity.js', 'accounts', 'create', '--name', 'From CLI', '--credits', '12', '--json'],
      {
        env: { ...process.env, DATABASE_URL: stack.database.url, LOG_LEVEL: 'silent' },
      },
    );
    const created = JSON.parse(stdout);
    const ping = await stack.client.withKey(created.api_key).get('/v1/ping');
    assert.equal(ping.body.account.name, 'From CLI');
    assert.equal(ping.body.credits_remaining, 12);
  });

  it("`verity accounts credit` adds credits the account's keys see, as a top-up with the note", async () => {
    const account = await stack.account(10, 'credit-cli');
    const env = { ...process.env, DATABASE_URL: stack.database.url, LOG_LEVEL: 'silent' };
    const cli = (...args: string[]) =>
      run(process.execPath, ['bin/verity.js', 'accounts', 'credit', ...args], { env });
    const human = await cli(
      '--account',
      account.accountId,
      '--amount',
      '1000',
      '--note',
      'invoice 7',
    );
    assert.equal(human.stdout, `added 1,000 credits to ${account.accountId}; balance 1,010\n`);
    const json = await cli('--account', account.accountId, '--amount', '5', '--json');
    assert.deepEqual(JSON.parse(json.stdout), {
      account_id: account.accountId,
      credits_balance: 1015,
    });
    assert.equal((await account.client.get('/v1/ping')).body.credits_remaining, 1015);
    const topUps: { delta: number; reference: string }[] = await stack.dataSource.query(
      `SELECT delta, reference FROM credit_ledger WHERE account_id = $1 AND reason = 'top_up' ORDER BY id`,
      [account.accountId],
    );
    assert.deepEqual(
      topUps.map((r) => [Number(r.delta), r.reference]),
      [
        [1000, 'invoice 7'],
        [5, 'cli'],
      ],
    );
  });

  it('`verity accounts credit` refuses a wrong command line (2) and an unknown account (3) in one sentence', async () => {
    const env = { ...process.env, DATABASE_URL: stack.database.url, LOG_LEVEL: 'silent' };
    const refused = (args: string[], code: number, message: RegExp) =>
      assert.rejects(
        run(process.execPath, ['bin/verity.js', 'accounts', 'credit', ...args], { env }),
        (error: { code: number; stderr: string }) => {
          assert.equal(error.code, code, error.stderr);
          assert.match(error.stderr, message);
          assert.equal(error.stderr.trim().split('\n').length, 1, error.stderr);
          return true;
        },
      );
    const { accountId } = await stack.account(1, 'credit-refused');
    await refused(['--amount', '5'], 2, /^verity: --account is required/);
    await refused(['--account', accountId], 2, /^verity: --amount must be a whole number/);
    for (const amount of ['0', '-5', '2.5', 'ten'])
      await refused(['--account', accountId, `--amount=${amount}`], 2, /--amount must be/);
    await refused(
      ['--account', '00000000-0000-4000-8000-000000000000', '--amount', '5'],
      3,
      /^verity: account 00000000-0000-4000-8000-000000000000 not found\n$/,
    );
    await refused(['--account', 'acme', '--amount', '5'], 3, /^verity: account acme not found\n$/);
  });

  it('the CLI refuses bad arguments with exit code 2', async () => {
    await assert.rejects(
      run(process.execPath, ['bin/verity.js', 'accounts', 'create', '--credits', '5'], {
        env: { ...process.env, DATABASE_URL: stack.database.url },
      }),
      (error: { code: number; stderr: string }) =>
        error.code === 2 && /--name is required/.test(error.stderr),
    );
  });
});
