import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { encodeJobCursor, JobLifecycle } from '@verity/batch';
import { startTestStack, type TestClient, type TestStack } from '@verity/testing';
import { postBatch } from './batch-helpers';

interface ListedJob {
  id: string;
  status: string;
  type: string;
  total_rows: number;
  processed_rows: number;
  result_url: string | null;
  created_at: string;
  file_name: string | null;
  error?: { code: string; message: string };
  summary: Record<string, number> | null;
}

interface Page {
  data: ListedJob[];
  next_cursor: string | null;
}

/** Every page of GET /v1/batch with `query`, following next_cursor; `between` runs before each next page. */
async function walk(
  client: TestClient,
  query: string,
  between: () => Promise<void> = () => Promise.resolve(),
): Promise<{ pages: Page[]; ids: string[] }> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const res = await client.get(
      `/v1/batch?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    pages.push(res.body as Page);
    cursor = (res.body as Page).next_cursor;
    if (cursor !== null) await between();
  } while (cursor !== null);
  return { pages, ids: pages.flatMap((p) => p.data.map((j) => j.id)) };
}

describe('GET /v1/batch: the caller’s jobs, newest first, a page at a time', () => {
  let stack: TestStack;
  let owner: { accountId: string; apiKey: string; client: TestClient };
  let other: { accountId: string; apiKey: string; client: TestClient };
  let testClient: TestClient;
  /** The owner's live jobs, oldest first. */
  const created: { id: string; fileName: string; rows: number }[] = [];
  const testJobs: string[] = [];
  let otherJob: string;

  async function submit(apiKey: string, fileName: string, rows: number): Promise<string> {
    const lines = Array.from({ length: rows }, (_, i) => `u${i}@list.example`);
    const res = await postBatch(
      stack.client,
      apiKey,
      [
        ['type', 'email'],
        ['file', lines.join('\n') + '\n'],
      ],
      {},
      fileName,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.id as string;
  }

  before(async () => {
    // No pipeline: every job stays queued unless the test cancels it.
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_MAX_ACTIVE_JOBS: '1000',
      },
    });
    owner = await stack.account(10_000, 'lister');
    other = await stack.account(100, 'neighbour');
    const testKey = (
      await stack.app.get(ApiKeysService).create(owner.accountId, 'ci', undefined, 'test')
    ).key;
    testClient = stack.client.withKey(testKey);
    for (let i = 0; i < 25; i++) {
      const fileName = `list-${i}.csv`;
      created.push({ id: await submit(owner.apiKey, fileName, i + 1), fileName, rows: i + 1 });
    }
    for (let i = 0; i < 2; i++) testJobs.push(await submit(testKey, `test-${i}.csv`, 1));
    otherJob = await submit(other.apiKey, 'other.csv', 3);
  });
  after(async () => {
    await stack.close();
  });

  it('answers the first page: 20 jobs by default, newest first, each with its file name and row counts', async () => {
    const res = await owner.client.get('/v1/batch');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(String(res.headers.get('cache-control')), /no-store/);
    const page = res.body as Page;
    assert.equal(page.data.length, 20);
    assert.equal(typeof page.next_cursor, 'string');
    const newest = created.slice().reverse();
    assert.deepEqual(
      page.data.map((j) => j.id),
      newest.slice(0, 20).map((j) => j.id),
    );
    for (const [i, job] of page.data.entries()) {
      const expected = newest[i];
      assert.deepEqual(Object.keys(job).sort(), [
        'created_at',
        'file_name',
        'id',
        'partial_result_url',
        'processed_rows',
        'result_url',
        'status',
        'summary',
        'total_rows',
        'type',
      ]);
      assert.equal(job.file_name, expected.fileName);
      assert.equal(job.summary, null);
      assert.equal(job.total_rows, expected.rows);
      assert.equal(job.processed_rows, 0);
      assert.equal(job.status, 'queued');
      assert.equal(job.type, 'email');
      assert.equal(job.result_url, null);
      // The same body as GET /v1/batch/{id}.
      assert.deepEqual((await owner.client.get(`/v1/batch/${job.id}`)).body, job);
    }
    const times = page.data.map((j) => Date.parse(j.created_at));
    for (let i = 1; i < times.length; i++) assert.ok(times[i] <= times[i - 1]);
  });

  it('takes limit from 1 to 100; anything else is 400 naming limit', async () => {
    const one = (await owner.client.get('/v1/batch?limit=1')).body as Page;
    assert.deepEqual(
      one.data.map((j) => j.id),
      [created.at(-1)!.id],
    );
    const all = (await owner.client.get('/v1/batch?limit=100')).body as Page;
    assert.equal(all.data.length, 25);
    assert.equal(all.next_cursor, null);
    const exact = (await owner.client.get('/v1/batch?limit=25')).body as Page;
    assert.equal(exact.data.length, 25);
    assert.equal(exact.next_cursor, null, 'a page that ends with the last job is the last page');
    for (const limit of ['0', '101', 'abc', '1.5', '-3', '']) {
      const res = await owner.client.get(`/v1/batch?limit=${limit}`);
      assert.equal(res.status, 400, `limit=${limit}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, /^limit /, `limit=${limit}`);
    }
  });

  it('walks every job exactly once, unshifted by jobs created between pages, and ends with next_cursor null', async () => {
    const added: string[] = [];
    const { pages, ids } = await walk(owner.client, 'limit=7', async () => {
      added.push(await submit(owner.apiKey, `between-${added.length}.csv`, 2));
    });
    assert.deepEqual(
      pages.map((p) => p.data.length),
      [7, 7, 7, 4],
    );
    assert.equal(pages.at(-1)!.next_cursor, null);
    assert.deepEqual(
      ids,
      created
        .slice()
        .reverse()
        .map((j) => j.id),
    );
    assert.equal(added.length, 3);
    // The new jobs lead the next first page.
    const first = (await owner.client.get('/v1/batch?limit=3')).body as Page;
    assert.deepEqual(
      first.data.map((j) => j.id),
      added.slice().reverse(),
    );
    created.push(...added.map((id, i) => ({ id, fileName: `between-${i}.csv`, rows: 2 })));
  });

  it('filters by status, pages included; cancelled is the failed jobs the account cancelled; an unknown status is 400 naming status', async () => {
    const cancelled = [created[3].id, created[10].id, created[20].id];
    for (const id of cancelled) {
      const res = await owner.client.delete(`/v1/batch/${id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    // A job failed for another reason than a cancel: failed, not cancelled.
    const broken = created[15].id;
    assert.ok(await stack.app.get(JobLifecycle).fail(broken, 'the upload was lost'));
    const failed = await walk(owner.client, 'status=failed&limit=2');
    assert.deepEqual(failed.ids, [created[20].id, broken, created[10].id, created[3].id]);
    for (const job of failed.pages.flatMap((p) => p.data)) {
      assert.equal(job.status, 'failed');
      assert.equal(job.error?.code, job.id === broken ? 'internal_error' : 'cancelled');
    }
    const onlyCancelled = await walk(owner.client, 'status=cancelled&limit=2');
    assert.deepEqual(onlyCancelled.ids, cancelled.slice().reverse());
    for (const job of onlyCancelled.pages.flatMap((p) => p.data)) {
      assert.equal(job.status, 'failed');
      assert.equal(job.error?.code, 'cancelled');
    }
    // The test key's jobs are apart: none of them was cancelled.
    assert.deepEqual((await testClient.get('/v1/batch?status=cancelled')).body, {
      data: [],
      next_cursor: null,
    });
    const queued = await walk(owner.client, 'status=queued&limit=10');
    assert.deepEqual(
      queued.ids,
      created
        .map((j) => j.id)
        .filter((id) => !cancelled.includes(id) && id !== broken)
        .reverse(),
    );
    const done = (await owner.client.get('/v1/batch?status=done')).body as Page;
    assert.deepEqual(done, { data: [], next_cursor: null });
    // A cursor from the unfiltered list continues a filtered one: it marks a place, not a filter.
    const top = (await owner.client.get('/v1/batch?limit=1')).body as Page;
    const rest = (
      await owner.client.get(
        `/v1/batch?status=failed&cursor=${encodeURIComponent(top.next_cursor!)}`,
      )
    ).body as Page;
    assert.deepEqual(
      rest.data.map((j) => j.id),
      [created[20].id, broken, created[10].id, created[3].id],
    );
    for (const status of ['CANCELLED', 'DONE', 'x']) {
      const res = await owner.client.get(`/v1/batch?status=${status}`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, /^status /);
    }
  });

  it('refuses a cursor it did not write, or one naming another account’s or mode’s job, with 400', async () => {
    const page = (await owner.client.get('/v1/batch?limit=2')).body as Page;
    const good = page.next_cursor!;
    const tampered = [
      'abc',
      '',
      good.slice(0, -1),
      good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A'),
      good + '=',
      good.toUpperCase(),
      encodeJobCursor('job_00000000000000000000000000000000'),
      'j1.' + Buffer.from('job_../../etc').toString('base64url'),
      'x'.repeat(300),
    ];
    for (const cursor of tampered) {
      const res = await owner.client.get(`/v1/batch?cursor=${encodeURIComponent(cursor)}`);
      assert.equal(res.status, 400, `${cursor}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, /^cursor /);
    }
    // Another account's job, or a test job for a live key: 400, never that account's jobs.
    for (const [client, foreign] of [
      [owner.client, otherJob],
      [other.client, created[5].id],
      [owner.client, testJobs[1]],
      [testClient, created[5].id],
    ] as const) {
      const res = await client.get(`/v1/batch?cursor=${encodeJobCursor(foreign)}`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error.message, /^cursor /);
    }
  });

  it('shows only the caller’s account and key mode', async () => {
    const mine = await walk(owner.client, 'limit=100');
    assert.equal(mine.ids.length, created.length);
    assert.ok(!mine.ids.includes(otherJob));
    for (const id of testJobs) assert.ok(!mine.ids.includes(id));

    const test = await walk(testClient, 'limit=1');
    assert.deepEqual(test.ids, testJobs.slice().reverse());
    assert.deepEqual(
      test.pages.map((p) => p.data[0].file_name),
      ['test-1.csv', 'test-0.csv'],
    );

    const theirs = (await other.client.get('/v1/batch?limit=1')).body as Page;
    assert.deepEqual(
      theirs.data.map((j) => [j.id, j.file_name, j.total_rows]),
      [[otherJob, 'other.csv', 3]],
    );
    assert.equal(theirs.next_cursor, null);
  });

  it('needs an API key', async () => {
    const res = await stack.client.get('/v1/batch');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
  });
});
