import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import {
  ConsoleClient,
  consoleUser,
  LoopbackDnsServer,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, eventually, postBatch, unsigned, waitForJob } from './batch-helpers';

const SLOW_ROWS = 200;

/** Email rows each on its own domain: with the slow resolver every row takes its own lookups. */
function slowEmails(tag: string): string {
  return Array.from({ length: SLOW_ROWS }, (_, i) => `u${i}@${tag}-${i}.example`).join('\n') + '\n';
}

/** An upload from the console (type, optional webhook_url, then the file, as the page sends). */
async function consoleUpload(
  browser: ConsoleClient,
  csv: string,
  fileName: string,
  webhookUrl?: string,
) {
  const form = new FormData();
  form.append('type', 'email');
  if (webhookUrl) form.append('webhook_url', webhookUrl);
  form.append('file', new Blob([csv]), fileName);
  const created = await browser.post('/batch', form);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  return created.body.id as string;
}

async function ledgerOf(stack: TestStack, jobId: string): Promise<string[]> {
  const rows = await stack.dataSource.query<{ reason: string; delta: string }[]>(
    'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
    [jobId],
  );
  return rows.map((r) => `${r.reason} ${r.delta}`);
}

describe('console API: the Batch page (job list with cursor and status, cancel)', () => {
  let stack: TestStack;
  let slow: LoopbackDnsServer;
  let receiver: Server;
  const hooks: string[] = [];

  before(async () => {
    // Every DNS answer comes late, so an email job of SLOW_ROWS rows stays processing for
    // seconds: long enough to be cancelled while the scorer works on it.
    slow = new LoopbackDnsServer({ zone: {}, delayMs: 60 });
    const dns = await slow.start();
    stack = await startTestStack({
      env: {
        DNS_SERVERS: `${dns.host}:${dns.port}`,
        BATCH_EMAIL_CONCURRENCY: '1',
        BATCH_CHUNK_ROWS: '10',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      modules: [IngestModule, ScorerModule],
    });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hooks.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await stack.close();
    await slow.stop();
  });

  it('pages the jobs newest first with a cursor, filtered by status', async () => {
    const { browser, apiKey } = await consoleUser(stack, 10_000, 'pages@batch-list.test');
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const job = await postBatch(
        stack.client,
        apiKey,
        [
          ['type', 'ip'],
          ['file', `8.8.8.${i}\n1.1.1.${i}\n`],
        ],
        {},
        `ips-${i}.csv`,
      );
      assert.equal(job.status, 202, JSON.stringify(job.body));
      assert.equal(
        (await waitForJob(stack.client.withKey(apiKey), job.body.id)).at(-1)?.body.status,
        'done',
      );
      created.push(job.body.id);
    }
    const slowJob = await consoleUpload(browser, slowEmails('pages'), 'leads.csv');
    const cancelled = await browser.delete(`/batch/${slowJob}`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    created.push(slowJob);
    const newestFirst = [...created].reverse();

    const walk = async (query: string) => {
      const pages: { ids: string[]; next: string | null }[] = [];
      let cursor: string | null = null;
      do {
        const res = await browser.get(
          `/batch?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.ok(res.body.data.length <= 2);
        cursor = res.body.next_cursor;
        pages.push({ ids: res.body.data.map((j: { id: string }) => j.id), next: cursor });
      } while (cursor !== null);
      return pages;
    };

    const all = await walk('');
    assert.deepEqual(
      all.map((p) => p.ids.length),
      [2, 2, 2],
    );
    assert.deepEqual(
      all.flatMap((p) => p.ids),
      newestFirst,
    );
    const done = await walk('&status=done');
    assert.deepEqual(
      done.flatMap((p) => p.ids),
      newestFirst.slice(1),
    );
    assert.equal(done.length, 3);

    const failed = await browser.get('/batch?status=failed');
    assert.equal(failed.body.next_cursor, null);
    assert.deepEqual(
      failed.body.data.map((j: any) => [j.id, j.file_name, j.status, j.failure_code]),
      [[slowJob, 'leads.csv', 'failed', 'cancelled']],
    );
    const first = (await browser.get('/batch?limit=1')).body.data[0];
    assert.equal(first.file_name, 'leads.csv');
    assert.equal(first.refunded_credits, SLOW_ROWS - first.processed_rows);
    const ips = (await browser.get('/batch?status=done&limit=1')).body.data[0];
    assert.deepEqual(
      [ips.file_name, ips.type, ips.failure_code, ips.failure_reason, ips.refunded_credits],
      ['ips-4.csv', 'ip', null, null, 0],
    );
    assert.match(ips.result_url, /\/v1\/batch\/job_[0-9a-f]{32}\/download\?sig=/);
    assert.equal((await browser.get('/batch?status=queued')).body.data.length, 0);
    const onlyCancelled = await browser.get('/batch?status=cancelled');
    assert.deepEqual(
      onlyCancelled.body.data.map((j: any) => [j.id, j.status, j.failure_code]),
      [[slowJob, 'failed', 'cancelled']],
    );

    for (const bad of ['limit=0', 'limit=101', 'status=Cancelled', 'cursor=j1.bm90IGEgam9i']) {
      const res = await browser.get(`/batch?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'validation_error', bad);
    }
    // A cursor of another account's list names no job of this one.
    const other = await consoleUser(stack, 10, 'other@batch-list.test');
    const foreign = await other.browser.get(`/batch?cursor=${encodeURIComponent(all[0].next!)}`);
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.error.message, /cursor is not valid/);
  });

  it('cancels a processing job: the rest refunded once, seen in the overview and the statement, the webhook sent', async () => {
    const { browser, apiKey } = await consoleUser(stack, 1_000, 'cancel@batch-list.test');
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cancel`;
    const jobId = await consoleUpload(browser, slowEmails('cancel'), 'signups.csv', hook);
    await eventually(async () => {
      const job = (await browser.get(`/batch/${jobId}`)).body;
      return job.status === 'processing' && job.processed_rows > 0 ? job : undefined;
    }, 'the job processing its first rows');

    // State-changing: without the CSRF token, or from another origin, nothing happens.
    const noToken = await browser.send('DELETE', `/batch/${jobId}`, undefined, {
      'x-csrf-token': '',
    });
    assert.equal(noToken.status, 403);
    assert.match(noToken.body.error.message, /CSRF token/);
    const crossSite = await browser.send('DELETE', `/batch/${jobId}`, undefined, {
      origin: 'http://evil.example',
    });
    assert.equal(crossSite.status, 403);
    // Without a session: 401.
    assert.equal(
      (await new ConsoleClient(stack.client.baseUrl).delete(`/batch/${jobId}`)).status,
      401,
    );
    assert.notEqual((await browser.get(`/batch/${jobId}`)).body.status, 'failed');

    const cancelled = await browser.delete(`/batch/${jobId}`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.headers.get('cache-control'), 'no-store');
    const job = cancelled.body;
    assert.equal(job.id, jobId);
    assert.equal(job.status, 'failed');
    assert.equal(job.failure_code, 'cancelled');
    assert.equal(job.file_name, 'signups.csv');
    assert.equal(job.result_url, null);
    assert.ok(job.finished_at);
    assert.ok(job.processed_rows < SLOW_ROWS, String(job.processed_rows));
    const refund = SLOW_ROWS - job.processed_rows;
    assert.equal(job.refunded_credits, refund);

    // Idempotent: the same job again, refunded once.
    const again = await browser.delete(`/batch/${jobId}`);
    assert.equal(again.status, 200);
    assert.deepEqual(unsigned(again.body), unsigned(job));
    // The rows scored before the cancel, delivered: the header and each of them.
    const partial = await download(job.partial_result_url as string);
    assert.equal(partial.text.trimEnd().split('\n').length, job.processed_rows + 1);
    assert.deepEqual(await ledgerOf(stack, jobId), [
      `batch_row -${SLOW_ROWS}`,
      `batch_refund ${refund}`,
    ]);

    const overview = (await browser.get('/overview')).body;
    assert.equal(overview.credits_balance, 1_000 - job.processed_rows);
    assert.deepEqual(
      [overview.recent_jobs[0].id, overview.recent_jobs[0].failure_code],
      [jobId, 'cancelled'],
    );
    assert.equal(overview.recent_jobs[0].refunded_credits, refund);
    const statement = (await browser.get('/statement')).body;
    const line = statement.batch_jobs.find((b: { job_id: string }) => b.job_id === jobId);
    assert.deepEqual([line.charged, line.refunded], [SLOW_ROWS, refund]);

    const viaApi = await stack.client.withKey(apiKey).get(`/v1/batch/${jobId}`);
    assert.equal(viaApi.body.error.code, 'cancelled');
    const delivered = await eventually(
      () => Promise.resolve(hooks.map((h) => JSON.parse(h)).find((h) => h.id === jobId)),
      'the failure webhook',
    );
    assert.equal(delivered.status, 'failed');
    assert.equal(delivered.error.code, 'cancelled');
  });

  it("another account's job is 404, a done job 422, a test-mode job 404; nothing changes", async () => {
    const owner = await consoleUser(stack, 100, 'owner@batch-list.test');
    const stranger = await consoleUser(stack, 100, 'stranger@batch-list.test');
    const done = await postBatch(stack.client, owner.apiKey, [
      ['type', 'ip'],
      ['file', '8.8.8.8\n'],
    ]);
    assert.equal(done.status, 202);
    await waitForJob(stack.client.withKey(owner.apiKey), done.body.id);

    const foreign = await stranger.browser.delete(`/batch/${done.body.id}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'not_found');

    const finished = await owner.browser.delete(`/batch/${done.body.id}`);
    assert.equal(finished.status, 422);
    assert.equal(finished.body.error.code, 'unprocessable');
    assert.match(finished.body.error.message, /is done: a finished job cannot be cancelled/);
    const after = (await owner.browser.get(`/batch/${done.body.id}`)).body;
    assert.deepEqual([after.status, after.refunded_credits], ['done', 0]);
    assert.deepEqual(await ledgerOf(stack, done.body.id), ['batch_row -1']);

    // The console works on live jobs: a job of the account's test key is not found here.
    const testKey = await stack.app
      .get(ApiKeysService)
      .create(owner.accountId, 'ci', undefined, 'test');
    const testJob = await postBatch(stack.client, testKey.key, [
      ['type', 'ip'],
      ['file', '8.8.8.8\n'],
    ]);
    assert.equal(testJob.status, 202);
    assert.equal((await owner.browser.delete(`/batch/${testJob.body.id}`)).status, 404);

    for (const id of ['not-a-job', 'job_' + '0'.repeat(32)]) {
      const res = await owner.browser.delete(`/batch/${id}`);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.error.code, 'not_found', id);
    }
  });
});
