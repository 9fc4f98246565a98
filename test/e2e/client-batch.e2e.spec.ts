import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BatchFailedError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
  Verity,
  type BatchJob,
  type VerityOptions,
} from '@verity/client';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';

interface SentRequest {
  method: string;
  path: string;
  search: string;
  /** The multipart form's fields in order (`file` as its file name), for uploads. */
  form: [string, string][] | null;
}

/**
 * Node's fetch, recording each request as it went on the wire: an upload's body is read whole
 * and its multipart form parsed (by the same WHATWG parser a server would use), then sent.
 */
function recordingFetch() {
  const sent: SentRequest[] = [];
  const fetcher: typeof fetch = async (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : (input as URL).href);
    const headers = new Headers(init.headers);
    let body = init.body;
    let form: [string, string][] | null = null;
    if (body !== undefined && body !== null && typeof body !== 'string') {
      const pieces: Uint8Array[] = [];
      for await (const piece of body as AsyncIterable<Uint8Array>) pieces.push(piece);
      const bytes = Buffer.concat(pieces);
      body = bytes;
      const parsed = await new Response(bytes, {
        headers: { 'content-type': headers.get('content-type') ?? '' },
      }).formData();
      form = [...parsed.entries()].map(([name, value]) => [
        name,
        typeof value === 'string' ? value : value.name,
      ]);
    }
    sent.push({ method: init.method ?? 'GET', path: url.pathname, search: url.search, form });
    return fetch(url, { ...init, body, duplex: undefined });
  };
  return { sent, fetch: fetcher };
}

describe('@verity/client: batch list, listAll, cancel and the upload fields', () => {
  // `stack` processes jobs; on `idle` (no splitter) they stay queued until cancelled.
  let stack: TestStack;
  let idle: TestStack;
  let work: string;

  before(async () => {
    const env = { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' };
    [stack, idle] = await Promise.all([
      startTestStack({ env, modules: [IngestModule, ScorerModule] }),
      startTestStack({ env }),
    ]);
    work = await mkdtemp(join(tmpdir(), 'verity-client-batch-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await Promise.all([stack.close(), idle.close()]);
  });

  async function client(on: TestStack, credits = 1_000, options: VerityOptions = {}) {
    const account = await on.account(credits, 'sdk-batch');
    return {
      ...account,
      verity: new Verity({ apiKey: account.apiKey, baseUrl: on.client.baseUrl, ...options }),
    };
  }

  async function ledger(on: TestStack, jobId: string): Promise<string[]> {
    const rows = await on.dataSource.query<{ reason: string; delta: string }[]>(
      'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [jobId],
    );
    return rows.map((row) => `${row.reason} ${row.delta}`);
  }

  /** `n` queued jobs on `idle`, oldest first, from files named list-<i>.csv of i + 1 rows. */
  async function queuedJobs(verity: Verity, n: number): Promise<BatchJob[]> {
    const jobs: BatchJob[] = [];
    for (let i = 0; i < n; i++) {
      const path = join(work, `list-${i}.csv`);
      await writeFile(
        path,
        Array.from({ length: i + 1 }, (_, r) => `u${r}@example.com\n`),
      );
      jobs.push(await verity.batch.create({ type: 'email', file: path }));
    }
    return jobs;
  }

  it('list pages newest first; listAll follows next_cursor to the last page', async () => {
    const recorder = recordingFetch();
    const { verity } = await client(idle, 1_000, { fetch: recorder.fetch });
    const created = await queuedJobs(verity, 5);
    const newestFirst = created.map((job) => job.id).reverse();
    // Another account's jobs are never listed.
    await queuedJobs((await client(idle)).verity, 1);

    const first = await verity.batch.list({ limit: 2 });
    assert.deepEqual(
      first.data.map((job) => job.id),
      newestFirst.slice(0, 2),
    );
    assert.equal(first.data[0].file_name, 'list-4.csv');
    assert.equal(first.data[0].total_rows, 5);
    assert.equal(first.data[0].status, 'queued');
    assert.equal(typeof first.next_cursor, 'string');
    const second = await verity.batch.list({ limit: 2, cursor: first.next_cursor! });
    assert.deepEqual(
      second.data.map((job) => job.id),
      newestFirst.slice(2, 4),
    );
    const last = await verity.batch.list({ limit: 2, cursor: second.next_cursor! });
    assert.deepEqual(
      last.data.map((job) => job.id),
      newestFirst.slice(4),
    );
    assert.equal(last.next_cursor, null);
    const everything = await verity.batch.list();
    assert.deepEqual(
      everything.data.map((job) => job.id),
      newestFirst,
    );
    assert.equal(everything.next_cursor, null);

    recorder.sent.length = 0;
    const all: string[] = [];
    for await (const job of verity.batch.listAll({ pageSize: 2 })) all.push(job.id);
    assert.deepEqual(all, newestFirst);
    assert.deepEqual(
      recorder.sent.map((r) => `${r.method} ${r.path}${r.search}`),
      [
        'GET /v1/batch?limit=2',
        `GET /v1/batch?limit=2&cursor=${first.next_cursor}`,
        `GET /v1/batch?limit=2&cursor=${second.next_cursor}`,
      ],
    );
    // The loop asks for pages only as it goes: breaking after one job fetched one page.
    recorder.sent.length = 0;
    for await (const job of verity.batch.listAll({ pageSize: 2 })) {
      assert.equal(job.id, newestFirst[0]);
      break;
    }
    assert.equal(recorder.sent.length, 1);

    await assert.rejects(verity.batch.list({ limit: 101 }), ValidationError);
    await assert.rejects(verity.batch.list({ cursor: 'not-a-cursor' }), ValidationError);
  });

  it('list and listAll filter by status; a cancelled job is failed with error.code cancelled', async () => {
    const { verity } = await client(idle);
    const [a, b, c] = await queuedJobs(verity, 3);
    await verity.batch.cancel(b.id);
    const failed = await verity.batch.list({ status: 'failed' });
    assert.deepEqual(
      failed.data.map((job) => [job.id, job.error?.code]),
      [[b.id, 'cancelled']],
    );
    const queued: string[] = [];
    for await (const job of verity.batch.listAll({ status: 'queued', pageSize: 1 }))
      queued.push(job.id);
    assert.deepEqual(queued, [c.id, a.id]);
    assert.deepEqual((await verity.batch.list({ status: 'done' })).data, []);
  });

  it('cancel stops a queued job and refunds its rows, once; a repeat answers the same job', async () => {
    const { verity, accountId } = await client(idle, 100);
    const job = await verity.batch.create({
      type: 'email',
      file: { content: 'a@example.com\nb@example.com\nc@example.com\n' },
    });
    assert.equal((await verity.ping()).credits_remaining, 97);

    const cancelled = await verity.batch.cancel(job.id);
    assert.equal(cancelled.id, job.id);
    assert.equal(cancelled.status, 'failed');
    assert.equal(cancelled.error?.code, 'cancelled');
    assert.equal(cancelled.processed_rows, 0);
    assert.equal(cancelled.total_rows, 3);
    assert.equal((await verity.ping()).credits_remaining, 100);

    assert.deepEqual(await verity.batch.cancel(job.id), cancelled);
    assert.deepEqual(await ledger(idle, job.id), ['batch_row -3', 'batch_refund 3']);
    assert.equal((await verity.ping()).credits_remaining, 100);

    // Waiting on it reports the cancellation as the job's failure.
    const waited = await verity.batch.wait(job.id).catch((error: unknown) => error);
    assert.ok(waited instanceof BatchFailedError);
    assert.equal(waited.job.error?.code, 'cancelled');

    // Another account's job is not found, and stays as it was.
    const other = await client(idle);
    const theirs = await other.verity.batch.create({
      type: 'ip',
      file: { content: '1.1.1.1\n' },
    });
    await assert.rejects(verity.batch.cancel(theirs.id), NotFoundError);
    assert.equal((await other.verity.batch.get(theirs.id)).status, 'queued');
    assert.notEqual(other.accountId, accountId);
  });

  it('cancel of a done job is UnprocessableError with the server’s sentence; the job stays done', async () => {
    const { verity } = await client(stack);
    const { job } = await verity.batch.run({
      type: 'ip',
      file: { content: '1.1.1.1\n8.8.8.8\n' },
      intervalMs: 20,
    });
    assert.equal(job.status, 'done');
    const refused = await verity.batch.cancel(job.id).catch((error: unknown) => error);
    assert.ok(refused instanceof UnprocessableError, String(refused));
    assert.equal(refused.status, 422);
    assert.equal(
      refused.message,
      `batch job ${job.id} is done: a finished job cannot be cancelled`,
    );
    assert.equal((await verity.batch.get(job.id)).status, 'done');
    assert.deepEqual(await ledger(stack, job.id), ['batch_row -2']);
  });

  it('create sends column, header and fields as form fields only when given', async () => {
    const recorder = recordingFetch();
    const { verity } = await client(idle, 1_000, { fetch: recorder.fetch });
    const uploads = () => recorder.sent.filter((r) => r.method === 'POST').map((r) => r.form);

    await verity.batch.create({ type: 'email', file: { content: 'a@example.com\n' } });
    await verity.batch.create({
      type: 'email',
      file: { content: 'email\na@example.com\n' },
      column: 'email',
      header: true,
      fields: 'all',
    });
    await verity.batch.create({
      type: 'email',
      file: { content: 'a@example.com\n' },
      column: 1,
      header: false,
      fields: 'spec',
    });
    assert.deepEqual(uploads(), [
      [
        ['type', 'email'],
        ['file', 'upload.csv'],
      ],
      [
        ['type', 'email'],
        ['column', 'email'],
        ['header', 'true'],
        ['fields', 'all'],
        ['file', 'upload.csv'],
      ],
      [
        ['type', 'email'],
        ['column', '1'],
        ['header', 'false'],
        ['fields', 'spec'],
        ['file', 'upload.csv'],
      ],
    ]);

    // A column index counts from 1: refused before anything is sent.
    const before = recorder.sent.length;
    for (const column of [0, -1, 1.5])
      await assert.rejects(
        verity.batch.create({ type: 'email', file: { content: 'a@example.com\n' }, column }),
        TypeError,
      );
    assert.equal(recorder.sent.length, before);
  });
});
