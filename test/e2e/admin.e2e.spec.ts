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
