import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeysService } from '@verity/accounts';
import {
  BATCH_NAMES,
  BatchAssemblyRepository,
  BatchJobRepository,
  JobLifecycle,
  decodeProgress,
  encodeMessage,
  type ProgressMessage,
  verifyWebhook,
  type BatchNames,
} from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type RowBus, type Subscription } from '@verity/ports';
import { LoopbackDnsServer, startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { JobRecoveryService } from '../../apps/ingest/src/recovery/job-recovery.service';
import { StorageRetentionService } from '../../apps/ingest/src/retention/storage-retention.service';
import { SplitterService } from '../../apps/ingest/src/splitter/splitter.service';
import { PROGRESS_INTERVAL_MS } from '../../apps/scorer/src/chunk-progress.reporter';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import {
  download,
  eventually,
  partlyScoredJob,
  postBatch,
  unsigned,
  waitForJob,
} from './batch-helpers';

/** A cancel's error: the true refund in rows and credits. */
const cancelled = (rows: number) => ({
  code: 'cancelled',
  message: `the job was cancelled; ${rows} unprocessed ${rows === 1 ? 'row' : 'rows'} refunded (${rows} ${rows === 1 ? 'credit' : 'credits'})`,
});

const WATCH_GROUP = 'cancel-spec-watch';

describe('DELETE /v1/batch/{jobId}: cancel with refund (embedded engine)', () => {
  let stack: TestStack;
  let dns: LoopbackDnsServer;
  let hook: Server;
  let names: BatchNames;
  let blobs: BlobStore;
  let bus: RowBus;
  let watch: Subscription;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  /** Every report on the progress topic, as a group of the test's own reads them. */
  const reports: ProgressMessage[] = [];

  before(async () => {
    // A resolver the test holds on cue: a chunk of mail domains then stays mid-scoring.
    dns = new LoopbackDnsServer({ zone: {} });
    const server = await dns.start();
    stack = await startTestStack({
      env: {
        DNS_SERVERS: `${server.host}:${server.port}`,
        DNS_TIMEOUT_MS: '120000',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '10',
        BATCH_EMAIL_CONCURRENCY: '2',
        // One chunk in flight per partition: chunk 0 is scored whatever blocks the others.
        KAFKA_CHUNK_PARTITIONS: '6',
        BATCH_SCORER_CONCURRENCY: '6',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      modules: [IngestModule, ScorerModule],
    });
    names = stack.app.get<BatchNames>(BATCH_NAMES);
    blobs = stack.app.get<BlobStore>(BLOB_STORE);
    bus = stack.app.get<RowBus>(ROW_BUS);
    watch = await bus.consume(WATCH_GROUP, names.progressTopic, (msg) => {
      const report = decodeProgress(msg.value);
      if (report) reports.push(report);
      return Promise.resolve();
    });
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    dns.release();
    await watch.stop();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    await stack.close();
    await dns.stop();
  });

  const hookUrl = () => `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  const deliveriesOf = (id: string) =>
    received.filter((r) => (JSON.parse(r.body) as { id: string }).id === id);

  /** Balance, and the job's ledger rows as "reason delta". */
  async function money(accountId: string, jobId: string) {
    const [{ balance }] = await stack.dataSource.query<{ balance: number }[]>(
      'SELECT credits_balance::int AS balance FROM accounts WHERE id = $1',
      [accountId],
    );
    const rows = await stack.dataSource.query<{ reason: string; delta: string }[]>(
      'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [jobId],
    );
    return { balance, ledger: rows.map((r) => `${r.reason} ${r.delta}`) };
  }

  /** The job's recorded chunks, processed_rows and what is stored under its keys. */
  async function footprint(jobId: string) {
    const [{ chunks, chunk_rows }] = await stack.dataSource.query<
      { chunks: number; chunk_rows: number }[]
    >(
      'SELECT count(*)::int AS chunks, coalesce(sum(rows), 0)::int AS chunk_rows FROM batch_chunks WHERE job_id = $1',
      [jobId],
    );
    const [job] = await stack.dataSource.query<
      { status: string; processed_rows: number; refunded_rows: number }[]
    >('SELECT status, processed_rows, refunded_rows FROM batch_jobs WHERE id = $1', [jobId]);
    const stored: string[] = [];
    for await (const key of blobs.list(`results/${jobId}/`)) stored.push(key);
    if (await blobs.head(`uploads/${jobId}.csv`)) stored.push(`uploads/${jobId}.csv`);
    return { ...job, chunks, chunk_rows, stored };
  }

  /** Until every chunk and report published so far is handled (scorers and assembler idle). */
  async function settled(): Promise<void> {
    await eventually(async () => {
      const lag = [
        ...(await bus.lag(names.scorerGroup, names.chunksTopic)),
        ...(await bus.lag(names.assemblerGroup, names.progressTopic)),
        ...(await bus.lag(WATCH_GROUP, names.progressTopic)),
      ];
      return lag.every((p) => p.lag === 0) ? true : undefined;
    }, 'scorers and assembler idle');
  }

  /** A queued job of `accountId` with its upload stored and no hand-over to the splitter. */
  async function queuedJob(
    accountId: string,
    id: string,
    rows: number,
    mode: 'live' | 'test' = 'live',
  ): Promise<void> {
    const lines = Array.from({ length: rows }, (_, i) => `q${i}@queued.example`);
    await blobs.put(`uploads/${id}.csv`, Buffer.from(lines.join('\n') + '\n'));
    await stack.app.get(JobLifecycle).create({
      id,
      accountId,
      keyId: null,
      mode,
      type: 'email',
      totalRows: rows,
      uploadKey: `uploads/${id}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
  }

  it('cancels a processing job mid-chunk: refund of the unscored rows, the scored ones delivered, the webhook, nothing else left, nothing counted late', async () => {
    const account = await stack.account(1_000, 'cancel-processing');
    // Chunk 0 has no mail domain to look up and is scored at once; chunks 1-9 wait on DNS.
    const scored = Array.from({ length: 10 }, (_, i) => `not-an-address-${i}`);
    const rows = [
      ...scored,
      ...Array.from({ length: 90 }, (_, i) => `user${i}@domain${i}.example`),
    ];
    // What those 10 rows give as a job of their own (another account): the partial file's bytes.
    const reference = await stack.account(100, 'cancel-reference');
    const alone = await postBatch(stack.client, reference.apiKey, [
      ['type', 'email'],
      ['file', scored.join('\n') + '\n'],
    ]);
    const aloneDone = (await waitForJob(reference.client, alone.body.id as string)).at(-1)!.body;
    const expected = (await download(aloneDone.result_url as string)).text;
    dns.hold();
    const created = await postBatch(
      stack.client,
      account.apiKey,
      [
        ['type', 'email'],
        ['webhook_url', hookUrl()],
        ['file', rows.join('\n') + '\n'],
      ],
      {},
      'mistake.csv',
    );
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.id as string;
    await eventually(async () => {
      const job = (await account.client.get(`/v1/batch/${id}`)).body;
      return job.processed_rows === 10 && dns.queries.length > 0 ? job : undefined;
    }, 'chunk 0 recorded while the others wait on DNS');
    assert.deepEqual(await money(account.accountId, id), {
      balance: 900,
      ledger: ['batch_row -100'],
    });

    const res = await account.client.delete(`/v1/batch/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(String(res.headers.get('cache-control')), /no-store/);
    assert.equal(res.body.id, id);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.processed_rows, 10);
    assert.equal(res.body.result_url, null);
    assert.equal(res.body.file_name, 'mistake.csv');
    assert.deepEqual(res.body.error, cancelled(90));
    // Refunded with the status change: charged for the 10 scored rows, no more.
    assert.deepEqual(await money(account.accountId, id), {
      balance: 990,
      ledger: ['batch_row -100', 'batch_refund 90'],
    });
    assert.deepEqual(
      unsigned((await account.client.get(`/v1/batch/${id}`)).body),
      unsigned(res.body),
    );
    // The 10 rows it stays charged for, as the same job's result file would hold them.
    assert.match(res.body.partial_result_url, /\/v1\/batch\/job_[0-9a-f]{32}\/download\?sig=/);
    const partial = await download(res.body.partial_result_url as string);
    assert.equal(partial.status, 200);
    assert.equal(
      partial.headers.get('content-disposition'),
      `attachment; filename="mistake-partial.csv"; filename*=UTF-8''mistake-partial.csv`,
    );
    assert.equal(partial.text, expected);

    // The failure webhook, signed.
    const [delivery] = await eventually(() => {
      const found = deliveriesOf(id);
      return Promise.resolve(found.length > 0 ? found : undefined);
    }, 'the failure webhook');
    const [{ webhook_secret }] = await stack.dataSource.query<{ webhook_secret: string }[]>(
      'SELECT webhook_secret FROM accounts WHERE id = $1',
      [account.accountId],
    );
    const signature = delivery.headers['verity-signature'] as string;
    const now = Math.floor(Date.now() / 1000);
    assert.equal(verifyWebhook(signature, delivery.body, webhook_secret, 300, now), 'ok');
    assert.equal(
      verifyWebhook(signature, delivery.body + ' ', webhook_secret, 300, now),
      'invalid',
    );
    assert.deepEqual(unsigned(JSON.parse(delivery.body)), unsigned(res.body));

    // Again: the same job, nothing refunded twice.
    const again = await account.client.delete(`/v1/batch/${id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(unsigned(again.body), unsigned(res.body));

    // The scorers holding chunks 1-6 see the end at their watch's next tick; when the answers
    // come, each stops after the rows in flight (no other name is asked) and drops its chunk.
    await sleep(3 * PROGRESS_INTERVAL_MS);
    const domains = (queries: string[]) => new Set(queries.map((q) => q.split(' ')[1]));
    const asked = domains(dns.queries);
    dns.release();
    await settled();
    assert.deepEqual(domains(dns.queries), asked);
    // Completions that come after the end: a chunk, and a chunk that failed for good.
    await bus.publish(names.progressTopic, [
      { key: id, value: encodeMessage({ v: 1, kind: 'chunk', jobId: id, chunkNo: 4, rows: 10 }) },
      {
        key: id,
        value: encodeMessage({
          v: 1,
          kind: 'chunk_failed',
          jobId: id,
          chunkNo: 5,
          reason: 'late',
        }),
      },
    ]);
    await settled();
    assert.deepEqual(await footprint(id), {
      status: 'failed',
      processed_rows: 10,
      refunded_rows: 90,
      chunks: 1,
      chunk_rows: 10,
      stored: [`results/${id}/partial.csv`],
    });
    assert.equal((await download(res.body.partial_result_url as string)).text, expected);
    assert.deepEqual(await money(account.accountId, id), {
      balance: 990,
      ledger: ['batch_row -100', 'batch_refund 90'],
    });
    assert.deepEqual(
      unsigned((await account.client.get(`/v1/batch/${id}`)).body),
      unsigned(res.body),
    );
    // The scorers reported chunk 0 and nothing else: the chunks they held were dropped.
    assert.deepEqual(
      reports
        .filter((r) => r.jobId === id && r.kind === 'chunk')
        .map((r) => (r.kind === 'chunk' ? r.chunkNo : -1)),
      [0, 4],
    );
    assert.equal(deliveriesOf(id).length, 1, 'one webhook');
    const listed = (await account.client.get('/v1/batch?status=failed')).body;
    assert.deepEqual(listed.data.map(unsigned), [unsigned(res.body)]);
    // Retention treats the partial file as a result: 410 once expired, then deleted.
    const later = new Date(Date.now() + (stack.config.RESULT_RETENTION_DAYS + 1) * 86_400_000);
    assert.ok((await stack.app.get(StorageRetentionService).sweep(later)).purgedJobs >= 1);
    assert.deepEqual((await footprint(id)).stored, []);
    assert.equal((await download(res.body.partial_result_url as string)).status, 410);
  });

  it('cancels a queued job: every row refunded; the splitter then finds nothing to do', async () => {
    const account = await stack.account(100, 'cancel-queued');
    const id = 'job_c0000000000000000000000000000001';
    await queuedJob(account.accountId, id, 40);
    assert.equal((await money(account.accountId, id)).balance, 60);

    const res = await account.client.delete(`/v1/batch/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.processed_rows, 0);
    assert.equal(res.body.partial_result_url, null, 'no row was scored: no partial file');
    assert.deepEqual(res.body.error, cancelled(40));
    assert.deepEqual(await money(account.accountId, id), {
      balance: 100,
      ledger: ['batch_row -40', 'batch_refund 40'],
    });
    // A repeat soon after runs the clean-up again (it completes a first call cut short after
    // its commit): a file left under the job's keys goes, and nothing is refunded twice.
    await blobs.put(`results/${id}/parts/00000007.csv`, Buffer.from('left\n'));
    assert.deepEqual((await account.client.delete(`/v1/batch/${id}`)).body, res.body);
    assert.deepEqual((await footprint(id)).stored, []);
    // The hand-over that was on its way reaches the splitter, and recovery sweeps: neither
    // publishes a chunk nor moves the job.
    assert.equal(await stack.app.get(SplitterService).split(id), 0);
    await stack.app.get(JobRecoveryService).sweep();
    await settled();
    assert.deepEqual(await footprint(id), {
      status: 'failed',
      processed_rows: 0,
      refunded_rows: 40,
      chunks: 0,
      chunk_rows: 0,
      stored: [],
    });
    // Retention later purges it like any ended job, and moves no money.
    const sweep = await stack.app
      .get(StorageRetentionService)
      .sweep(new Date(Date.now() + (stack.config.RESULT_RETENTION_DAYS + 1) * 86_400_000));
    assert.ok(sweep.purgedJobs >= 1);
    assert.deepEqual(await money(account.accountId, id), {
      balance: 100,
      ledger: ['batch_row -40', 'batch_refund 40'],
    });
    assert.deepEqual((await account.client.get(`/v1/batch/${id}`)).body, res.body);
  });

  it('cancelled while its file is assembled: every row scored, the whole file delivered as partial, 0 refunded', async () => {
    const account = await stack.account(100, 'cancel-assembling');
    const input = Array.from({ length: 25 }, (_, i) => `no-domain-${i}`);
    // The file the job would have delivered: the same rows run to the end (another account).
    const reference = await stack.account(100, 'cancel-assembling-reference');
    const full = await postBatch(stack.client, reference.apiKey, [
      ['type', 'email'],
      ['file', input.join('\n') + '\n'],
    ]);
    const fullDone = (await waitForJob(reference.client, full.body.id as string)).at(-1)!.body;
    const expected = (await download(fullDone.result_url as string)).text;
    // The same job scored to its last row, its chunks recorded, and an assembly under way:
    // the parts are the reference's rows in chunks of 10 (BATCH_CHUNK_ROWS).
    const id = 'job_c0000000000000000000000000000004';
    const lines = expected.trimEnd().split('\n').slice(1);
    const chunks = [lines.slice(0, 10), lines.slice(10, 20), lines.slice(20)];
    await partlyScoredJob(stack, account.accountId, id, input.length, chunks);
    await stack.app.get(BatchJobRepository).setChunkCount(id, chunks.length);
    const attempt = await stack.app
      .get(BatchAssemblyRepository)
      .tryAssembly(id, 'cancel-spec', async () => {
        const res = await account.client.delete(`/v1/batch/${id}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res;
      });
    assert.equal(attempt.state, 'assembled');
    const res = attempt.state === 'assembled' ? attempt.result : assert.fail('not assembled');
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.processed_rows, 25);
    assert.equal(res.body.result_url, null);
    assert.deepEqual(res.body.error, {
      code: 'cancelled',
      message: 'the job was cancelled; every row was scored: 0 rows refunded (0 credits)',
    });
    // The ledger agrees: charged for every row, nothing refunded.
    assert.deepEqual(await money(account.accountId, id), {
      balance: 75,
      ledger: ['batch_row -25'],
    });
    assert.equal((await download(res.body.partial_result_url as string)).text, expected);
    assert.deepEqual((await footprint(id)).stored, [`results/${id}/partial.csv`]);
  });

  it('answers 422 for a done job, 404 for another account’s, an unknown or an ill-formed id', async () => {
    const account = await stack.account(100, 'cancel-refusals');
    const stranger = await stack.account(100, 'cancel-stranger');
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', 'ip'],
      ['file', '192.0.2.1\n198.51.100.7\n'],
    ]);
    assert.equal(created.status, 202);
    const id = created.body.id as string;
    const done = (await waitForJob(account.client, id)).at(-1)!.body;
    assert.equal(done.status, 'done');

    const refused = await account.client.delete(`/v1/batch/${id}`);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'unprocessable');
    assert.match(refused.body.error.message, /is done/);
    assert.equal((await account.client.get(`/v1/batch/${id}`)).body.status, 'done');
    assert.deepEqual((await money(account.accountId, id)).ledger, ['batch_row -2']);

    const queued = 'job_c0000000000000000000000000000002';
    await queuedJob(account.accountId, queued, 3);
    for (const jobId of [id, queued]) {
      const foreign = await stranger.client.delete(`/v1/batch/${jobId}`);
      assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
      assert.equal(foreign.body.error.code, 'not_found');
    }
    assert.equal((await account.client.get(`/v1/batch/${queued}`)).body.status, 'queued');
    for (const jobId of ['job_ffffffffffffffffffffffffffffffff', 'nope', 'job_XYZ', '..%2F..']) {
      const res = await account.client.delete(`/v1/batch/${jobId}`);
      assert.equal(res.status, 404, `${jobId}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'not_found');
    }
    assert.equal((await stack.client.delete(`/v1/batch/${queued}`)).status, 401);
  });

  it('cancels a test job with its test key, moving no credits; a live key does not see it', async () => {
    const account = await stack.account(100, 'cancel-test-mode');
    const testKey = (
      await stack.app.get(ApiKeysService).create(account.accountId, 'ci', undefined, 'test')
    ).key;
    const id = 'job_c0000000000000000000000000000003';
    await queuedJob(account.accountId, id, 5, 'test');
    assert.equal((await account.client.delete(`/v1/batch/${id}`)).status, 404);
    const res = await stack.client.withKey(testKey).delete(`/v1/batch/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.error, {
      code: 'cancelled',
      message: 'the job was cancelled; 5 unprocessed rows, not charged (test job)',
    });
    assert.deepEqual(await money(account.accountId, id), { balance: 100, ledger: [] });
    const [{ refunded_rows }] = await stack.dataSource.query<{ refunded_rows: number }[]>(
      'SELECT refunded_rows FROM batch_jobs WHERE id = $1',
      [id],
    );
    assert.equal(refunded_rows, 5);
  });
});
