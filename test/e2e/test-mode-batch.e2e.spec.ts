import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { JobLifecycle } from '@verity/batch';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import { consoleUser, startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, eventually, postBatch, waitForJob } from './batch-helpers';

/** The account's balance and ledger rows. */
async function money(stack: TestStack, accountId: string) {
  const [row] = await stack.dataSource.query(
    `SELECT a.credits_balance::int AS balance,
            (SELECT count(*)::int FROM credit_ledger WHERE account_id = a.id) AS ledger,
            (SELECT count(*)::int FROM usage_hourly WHERE account_id = a.id) AS usage
     FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  return row as { balance: number; ledger: number; usage: number };
}

describe('test keys: batch jobs are free and apart from live jobs', () => {
  let stack: TestStack;
  let hook: Server;
  const received: string[] = [];

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '2',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      modules: [IngestModule, ScorerModule],
    });
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    await stack.close();
  });

  async function testKeyOf(accountId: string): Promise<string> {
    return (await stack.app.get(ApiKeysService).create(accountId, 'ci', undefined, 'test')).key;
  }

  it('runs a test job to done with its webhook, at balance 0, the ledger untouched; keys of the other mode get 404', async () => {
    const { browser, accountId, apiKey } = await consoleUser(stack, 0, 'batch@test-mode.test');
    const testKey = await testKeyOf(accountId);
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const before = await money(stack, accountId);

    const refused = await postBatch(stack.client, apiKey, [
      ['type', 'email'],
      ['file', 'a@example.com\n'],
    ]);
    assert.equal(refused.status, 402);

    const created = await postBatch(stack.client, testKey, [
      ['webhook_url', hookUrl],
      ['type', 'email'],
      ['file', 'a@example.com\nb@example.com\nc@example.com\n'],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.id as string;
    const test = stack.client.withKey(testKey);
    const final = (await waitForJob(test, id)).at(-1)!.body;
    assert.equal(final.status, 'done');
    assert.equal(final.processed_rows, 3);
    const file = await download(final.result_url);
    assert.equal(file.status, 200);
    assert.equal(file.text.trim().split('\n').length, 4);
    const delivered = await eventually(
      () => Promise.resolve(received.find((body) => JSON.parse(body).id === id)),
      `webhook of ${id}`,
    );
    assert.equal(JSON.parse(delivered).status, 'done');
    assert.deepEqual(await money(stack, accountId), before);
    const [{ mode }] = await stack.dataSource.query('SELECT mode FROM batch_jobs WHERE id = $1', [
      id,
    ]);
    assert.equal(mode, 'test');

    // The live key and the console (live) never see it.
    const live = stack.client.withKey(apiKey);
    assert.equal((await live.get(`/v1/batch/${id}`)).status, 404);
    assert.equal((await browser.get(`/batch/${id}`)).status, 404);
    const listed = await browser.get('/batch');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data, []);
    assert.deepEqual((await browser.get('/overview')).body.recent_jobs, []);
    // Its webhook was delivered and recorded, but the console's delivery list is the live one.
    await eventually(async () => {
      const [{ count }] = await stack.dataSource.query(
        'SELECT count(*)::int AS count FROM webhook_deliveries WHERE job_id = $1',
        [id],
      );
      return count > 0 ? true : undefined;
    }, `delivery of ${id} recorded`);
    const deliveries = await browser.get('/webhooks');
    assert.equal(deliveries.status, 200);
    assert.ok(deliveries.body.data.every((d: { job_id: string | null }) => d.job_id !== id));
  });

  it('a test key gets 404 for a live job of its own account', async () => {
    const { accountId, apiKey } = await stack.account(10);
    const testKey = await testKeyOf(accountId);
    const created = await postBatch(stack.client, apiKey, [
      ['type', 'email'],
      ['file', 'a@example.com\n'],
    ]);
    assert.equal(created.status, 202);
    const live = stack.client.withKey(apiKey);
    const final = (await waitForJob(live, created.body.id)).at(-1)!.body;
    assert.equal(final.status, 'done');
    assert.equal((await money(stack, accountId)).balance, 9);
    const test = stack.client.withKey(testKey);
    assert.equal((await test.get(`/v1/batch/${created.body.id}`)).status, 404);
  });

  it('an Idempotency-Key used by a live job does not replay it to a test key', async () => {
    const { accountId, apiKey } = await stack.account(10);
    const testKey = await testKeyOf(accountId);
    const fields: [string, string][] = [
      ['type', 'email'],
      ['file', 'a@example.com\n'],
    ];
    const headers = { 'idempotency-key': 'same-key' };
    const live = await postBatch(stack.client, apiKey, fields, headers);
    assert.equal(live.status, 202);
    const test = await postBatch(stack.client, testKey, fields, headers);
    assert.equal(test.status, 422);
    assert.equal(test.body.error.code, 'unprocessable');
  });

  it('a failed test job refunds nothing (it was never charged)', async () => {
    const { accountId } = await stack.account(10);
    const id = 'job_22222222222222222222222222222222';
    const before = await money(stack, accountId);
    const uploadKey = `uploads/${id}.csv`;
    await stack.app.get<BlobStore>(BLOB_STORE).put(uploadKey, Buffer.from('a@example.com\n'));
    const jobs = stack.app.get(JobLifecycle);
    await jobs.create({
      id,
      accountId,
      keyId: null,
      mode: 'test',
      type: 'email',
      totalRows: 1,
      uploadKey,
      webhookUrl: null,
      baseUrl: stack.client.baseUrl,
      idempotencyKey: null,
      requestHash: null,
    });
    const failed = await jobs.fail(id, 'test: failed on purpose');
    assert.equal(failed?.status, 'failed');
    assert.deepEqual(await money(stack, accountId), before);
  });
});
