import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BatchFailedError,
  BatchTimeoutError,
  ForbiddenError,
  InsufficientCreditsError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnprocessableError,
  ValidationError,
  Verity,
  VerityApiError,
  VerityClientError,
  VerityConnectionError,
  WebhookSignatureError,
  type BatchJob,
  type RetryEvent,
  type VerityOptions,
} from '@verity/client';
import { JobLifecycle, signDownload } from '@verity/batch';
import { JOB_QUEUE, type JobQueue } from '@verity/ports';
import { DroppingProxy, startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { eventually } from './batch-helpers';

const WEBHOOK_SECRET = 'whsec-client-test-0123456789';

/** A sleep that records the waits asked for and returns at once (tests never sleep for real). */
function recordedSleep(): { sleeps: number[]; sleep: NonNullable<VerityOptions['sleep']> } {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A fetch that records each request's method, path and answer status. */
function recordedFetch(rewrite: (url: string) => string = (u) => u) {
  const calls: { method: string; path: string; status: number }[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const url = rewrite(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    );
    const res = await fetch(url, init);
    calls.push({ method: init?.method ?? 'GET', path: new URL(url).pathname, status: res.status });
    return res;
  };
  return { calls, fetch: fetcher };
}

function rows(n: number, make: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => make(i)).join('\n') + '\n';
}

describe('@verity/client against the embedded server', () => {
  let stack: TestStack;
  let baseUrl: string;
  let apiKey: string;
  let accountId: string;
  let work: string;
  const client = (options: VerityOptions = {}) => new Verity({ apiKey, baseUrl, ...options });

  async function footprint(id: string) {
    const [row] = await stack.dataSource.query(
      `SELECT (SELECT count(*)::int FROM batch_jobs WHERE account_id = $1) AS jobs,
              (SELECT count(*)::int FROM credit_ledger WHERE account_id = $1 AND reason = 'batch_row') AS debits,
              (SELECT credits_balance FROM accounts WHERE id = $1) AS balance`,
      [id],
    );
    return { jobs: row.jobs as number, debits: row.debits as number, balance: Number(row.balance) };
  }

  /** A queued job that nothing processes (recovery runs hourly here) until `release()`. */
  async function stuckJob(account: string) {
    const id = `job_${randomBytes(16).toString('hex')}`;
    await stack.app.get(JobLifecycle).create({
      id,
      accountId: account,
      keyId: null,
      type: 'email',
      totalRows: 3,
      uploadKey: `uploads/${id}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    return {
      id,
      /** Hands it to the splitter, which finds no upload and fails it (refunding it). */
      release: () =>
        stack.app.get<JobQueue>(JOB_QUEUE).add('ingest', { jobId: id }, { jobId: `split-${id}` }),
    };
  }

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '250',
        BATCH_MAX_ACTIVE_JOBS: '1',
        BATCH_RECOVERY_INTERVAL_MS: '3600000',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_SECRET,
      },
      modules: [IngestModule, ScorerModule],
    });
    baseUrl = stack.client.baseUrl;
    ({ apiKey, accountId } = await stack.account(100_000, 'sdk'));
    work = await mkdtemp(join(tmpdir(), 'verity-client-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await stack.close();
  });

  it('ping, email, phone, ip and verify return the documented shapes', async () => {
    const verity = client();
    const ping = await verity.ping();
    assert.equal(ping.account.id, accountId);
    assert.equal(ping.credits_used, 0);
    assert.equal(typeof ping.credits_remaining, 'number');

    const email = await verity.email.validate('jane.doe@example.com');
    assert.equal(email.input, 'jane.doe@example.com');
    assert.equal(email.valid_syntax, true);
    assert.equal(email.credits_used, 1);

    const phone = await verity.phone.validate('07400 123456', { countryHint: 'GB' });
    assert.equal(phone.e164, '+447400123456');
    assert.equal(phone.country, 'GB');
    assert.equal(phone.hlr, null);

    const ip = await verity.ip.intel('8.8.8.8');
    assert.equal(ip.input, '8.8.8.8');
    assert.equal(ip.credits_used, 1);

    const plain = await verity.verify({ email: 'jane.doe@example.com', ip: '8.8.8.8' });
    assert.equal(plain.credits_used, 3);
    assert.equal('reasons' in plain, false);
    const explained = await verity.verify({ phone: '+14155552671' }, { explain: true });
    assert.equal(typeof explained.fraud_base, 'number');
    assert.ok(Array.isArray(explained.reasons));
    assert.deepEqual(Object.keys(explained).includes('email'), false);

    assert.equal((await verity.ping()).credits_remaining, ping.credits_remaining - 1 - 1 - 1 - 6);
  });

  it('keys: list, create (value once), rotate (old value dies), delete', async () => {
    const verity = client();
    const created = await verity.keys.create('staging');
    assert.match(created.key, /^vrt_live_[A-Za-z0-9]{24}$/);
    const listed = await verity.keys.list();
    const entry = listed.find((k) => k.id === created.id);
    assert.equal(entry?.name, 'staging');
    assert.equal('key' in (entry ?? {}), false);

    const rotated = await verity.keys.rotate(created.id);
    assert.notEqual(rotated.key, created.key);
    await assert.rejects(client({ apiKey: created.key }).ping(), UnauthorizedError);
    assert.equal((await client({ apiKey: rotated.key }).ping()).key.id, created.id);

    await verity.keys.delete(created.id);
    assert.equal(
      (await verity.keys.list()).some((k) => k.id === created.id),
      false,
    );
    await assert.rejects(client({ apiKey: rotated.key }).ping(), UnauthorizedError);
    await assert.rejects(verity.keys.delete(created.id), NotFoundError);
  });

  it('keys.create makes a test key; a client with that key just works', async () => {
    const verity = client();
    const created = await verity.keys.create('ci', { mode: 'test' });
    assert.match(created.key, /^vrt_test_[A-Za-z0-9]{24}$/);
    assert.equal(created.mode, 'test');
    assert.equal((await verity.keys.list()).find((k) => k.id === created.id)?.mode, 'test');
    const ping = await client({ apiKey: created.key }).ping();
    assert.equal(ping.key.id, created.id);
    await verity.keys.delete(created.id);
  });

  it('batch.create takes a path, { content }, bytes or a stream; get, wait and download follow it', async () => {
    const verity = client();
    const path = join(work, 'emails.csv');
    await writeFile(path, 'a@example.com\nb@example.com\n');
    const sources = [
      path,
      { content: 'c@example.com\n' },
      Buffer.from('d@example.com\ne@example.com\nf@example.com\n'),
      Readable.from([Buffer.from('g@exa'), Buffer.from('mple.com\n')]),
    ];
    const totals = [];
    for (const file of sources) {
      const job = await verity.batch.create({ type: 'email', file });
      assert.equal(job.status, 'queued');
      assert.equal(job.result_url, null);
      assert.equal((await verity.batch.get(job.id)).id, job.id);
      const done = await verity.batch.wait(job.id, { intervalMs: 20 });
      assert.equal(done.status, 'done');
      const csv = await verity.batch.download(done);
      assert.equal(
        csv.split('\n')[0],
        'input,valid_syntax,mx_found,disposable,score,deliverability,credits_used',
      );
      totals.push(done.total_rows);
    }
    assert.deepEqual(totals, [2, 1, 3, 1]);
  });

  it('batch.run = create + wait (onProgress to the end) + download into a file', async () => {
    const { sleeps, sleep } = recordedSleep();
    const verity = client({ sleep });
    const seen: BatchJob[] = [];
    let created: BatchJob | undefined;
    const to = join(work, 'result.csv');
    const { job, path, bytes } = await verity.batch.run({
      type: 'ip',
      file: { content: rows(2_000, (i) => `10.${(i >> 8) & 255}.${i & 255}.1`) },
      to,
      onCreated: (j) => (created = j),
      onProgress: (j) => seen.push(j),
    });
    assert.equal(created?.id, job.id);
    assert.equal(job.status, 'done');
    assert.equal(path, to);
    const text = await readFile(to, 'utf8');
    assert.equal(bytes, Buffer.byteLength(text));
    assert.equal(text.split('\n').length, 2_002);
    assert.equal(seen.at(-1)?.status, 'done');
    assert.equal(seen.at(-1)?.processed_rows, 2_000);
    for (let i = 1; i < seen.length; i++)
      assert.ok(seen[i].processed_rows >= seen[i - 1].processed_rows);
    // One poll per wait, at the 3 s default.
    assert.equal(sleeps.length, seen.length - 1);
    assert.ok(
      sleeps.every((ms) => ms === 3_000),
      sleeps.join(','),
    );
  });

  it('wait gives up after timeoutMs (default 600 s, polling every 3 s) with BatchTimeoutError', async () => {
    const account = await stack.account(100, 'slow');
    const stuck = await stuckJob(account.accountId);
    let clock = 0;
    const sleeps: number[] = [];
    const verity = client({
      apiKey: account.apiKey,
      now: () => clock,
      sleep: (ms) => {
        sleeps.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    const polls: string[] = [];
    await assert.rejects(
      verity.batch.wait(stuck.id, {
        intervalMs: 4_000,
        timeoutMs: 10_000,
        onProgress: (j) => polls.push(j.status),
      }),
      (error: unknown) =>
        error instanceof BatchTimeoutError &&
        error.job.id === stuck.id &&
        error.timeoutMs === 10_000,
    );
    assert.deepEqual(sleeps, [4_000, 4_000, 2_000]);
    assert.deepEqual(polls, ['queued', 'queued', 'queued', 'queued']);

    sleeps.length = 0;
    await assert.rejects(verity.batch.wait(stuck.id), BatchTimeoutError);
    assert.equal(sleeps.length, 200);
    assert.ok(sleeps.every((ms) => ms === 3_000));

    // The job was not touched: it fails only once released, and wait reports that.
    await stuck.release();
    await assert.rejects(
      client({ apiKey: account.apiKey }).batch.wait(stuck.id, { intervalMs: 20 }),
      (error: unknown) => error instanceof BatchFailedError && error.job.status === 'failed',
    );
  });

  it('a 429 from the active-job limit waits Retry-After (30 s > 1 s), then the retry creates the job', async () => {
    const account = await stack.account(100, 'busy');
    const stuck = await stuckJob(account.accountId);
    const events: RetryEvent[] = [];
    const sleeps: number[] = [];
    const verity = client({
      apiKey: account.apiKey,
      onRetry: (e) => events.push(e),
      sleep: async (ms) => {
        sleeps.push(ms);
        // The wait is when the blocking job ends.
        await stuck.release();
        await eventually(async () => {
          const [row] = await stack.dataSource.query(
            'SELECT status FROM batch_jobs WHERE id = $1',
            [stuck.id],
          );
          return row.status === 'failed' ? true : undefined;
        }, 'the blocking job to fail');
      },
    });
    const job = await verity.batch.create({ type: 'email', file: { content: 'a@example.com\n' } });
    assert.equal(job.status, 'queued');
    assert.deepEqual(sleeps, [30_000]);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].reason, { kind: 'status', status: 429, code: 'rate_limited' });
    assert.equal((await footprint(account.accountId)).jobs, 2);
    await verity.batch.wait(job.id, { intervalMs: 20 });
  });

  it('a batch.create whose answer is lost is retried with its Idempotency-Key: one job, one debit', async () => {
    const account = await stack.account(1_000, 'dropped');
    const proxy = await DroppingProxy.start(baseUrl);
    try {
      const events: RetryEvent[] = [];
      const { sleeps, sleep } = recordedSleep();
      const verity = client({
        apiKey: account.apiKey,
        baseUrl: proxy.url,
        sleep,
        onRetry: (e) => events.push(e),
      });
      proxy.dropNext();
      const job = await verity.batch.create({
        type: 'email',
        file: { content: rows(40, (i) => `user${i}@example.com`) },
      });
      assert.equal(proxy.dropped, 1);
      assert.deepEqual(sleeps, [1_000]);
      assert.equal(events[0].reason.kind, 'network');
      assert.equal(job.total_rows, 40);
      assert.deepEqual(await footprint(account.accountId), { jobs: 1, debits: 1, balance: 960 });
      await client({ apiKey: account.apiKey }).batch.wait(job.id, { intervalMs: 20 });

      // A charged call is not idempotent: the broken connection is reported, not retried.
      proxy.dropNext();
      await assert.rejects(verity.email.validate('a@example.com'), VerityConnectionError);
      assert.deepEqual(sleeps, [1_000]);
      assert.equal((await client({ apiKey: account.apiKey }).ping()).credits_remaining, 959);
    } finally {
      await proxy.close();
    }
  });

  it('download renews an expired result_url once (spec 403 rule); a link that stays refused is ForbiddenError', async () => {
    const verity = client();
    const { job } = await verity.batch.run({
      type: 'email',
      file: { content: 'a@example.com\nb@example.com\n' },
      intervalMs: 20,
    });
    const [{ value: secret }] = await stack.dataSource.query(
      `SELECT value FROM settings WHERE key = 'download_signing_secret'`,
    );
    const expired = new URL(job.result_url!);
    expired.searchParams.set(
      'sig',
      signDownload(job.id, Math.floor(Date.now() / 1000) - 60, secret),
    );
    const recorder = recordedFetch();
    const to = join(work, 'renewed.csv');
    const file = await client({ fetch: recorder.fetch }).batch.download(
      { ...job, result_url: expired.href },
      { to },
    );
    assert.deepEqual(
      recorder.calls.map((c) => `${c.method} ${c.path} ${c.status}`),
      [
        `GET /v1/batch/${job.id}/download 403`,
        `GET /v1/batch/${job.id} 200`,
        `GET /v1/batch/${job.id}/download 200`,
      ],
    );
    assert.equal(await readFile(to, 'utf8'), await verity.batch.download(job.id));
    assert.equal(file.bytes, (await readFile(to)).length);

    const tampering = recordedFetch((u) => u.replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(54)));
    await assert.rejects(
      client({ fetch: tampering.fetch }).batch.download(job),
      (e: unknown) => e instanceof ForbiddenError && e.status === 403 && e.code === 'forbidden',
    );
    assert.equal(tampering.calls.filter((c) => c.status === 403).length, 2);
  });

  it('every spec error code arrives as its own class with status, code, message and requestId', async () => {
    const verity = client();
    const check = async (
      call: Promise<unknown>,
      Class: typeof VerityApiError,
      status: number,
      code: string,
    ) => {
      const error = await call.then(
        () => assert.fail(`expected ${Class.name}`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof Class, `${String(error)} is not ${Class.name}`);
      assert.ok(error instanceof VerityApiError && error instanceof VerityClientError);
      assert.equal(error.name, Class.name);
      assert.equal(error.status, status);
      assert.equal(error.code, code);
      assert.ok(error.message.length > 0);
      return error;
    };
    await check(verity.verify({}), ValidationError, 400, 'validation_error');
    await check(
      client({ apiKey: 'vrt_live_' + 'x'.repeat(24) }).ping(),
      UnauthorizedError,
      401,
      'unauthorized',
    );
    const broke = await stack.account(0, 'broke');
    const credits = await check(
      client({ apiKey: broke.apiKey }).email.validate('a@example.com'),
      InsufficientCreditsError,
      402,
      'insufficient_credits',
    );
    assert.match(credits.message, /billing/);
    await check(
      verity.batch.get('job_ffffffffffffffffffffffffffffffff'),
      NotFoundError,
      404,
      'not_found',
    );
    await check(
      verity.email.validate('x'.repeat(70_000)),
      PayloadTooLargeError,
      413,
      'payload_too_large',
    );
    await check(verity.ip.intel('not-an-ip'), UnprocessableError, 422, 'unprocessable');

    const { sleeps, sleep } = recordedSleep();
    await check(
      client({ sleep }).phone.validate('+447400123456', { hlr: true }),
      ServiceUnavailableError,
      503,
      'service_unavailable',
    );
    // No HLR provider: the 503 carries no Retry-After, so it is thrown without a retry.
    assert.deepEqual(sleeps, []);

    // An account this instance holds no credit lease of yet: its first call writes the ledger.
    const fresh = await stack.account(5_000, 'fresh');
    await stack.dataSource.query('ALTER TABLE credit_ledger RENAME TO credit_ledger_gone');
    try {
      const internal = await check(
        client({ apiKey: fresh.apiKey }).email.validate('a@example.com'),
        InternalError,
        500,
        'internal_error',
      );
      assert.match(internal.requestId ?? '', /^[0-9a-f-]{36}$/);
      assert.match(internal.message, new RegExp(internal.requestId!));
    } finally {
      await stack.dataSource.query('ALTER TABLE credit_ledger_gone RENAME TO credit_ledger');
    }
  });

  it('webhooks.verify accepts a real delivery and rejects a tampered body and an old timestamp', async () => {
    const received: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
    const hook: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const verity = client();
      const job = await verity.batch.create({
        type: 'email',
        file: { content: 'jane.doe@example.com\n' },
        webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      });
      const delivery = await eventually(
        () => Promise.resolve(received.find((r) => r.body.includes(job.id))),
        'the webhook',
      );
      const verified = verity.webhooks.verify(delivery.body, delivery.headers, WEBHOOK_SECRET);
      assert.equal(verified.id, job.id);
      assert.equal(verified.status, 'done');
      // fetch's Headers and a string body work the same.
      const headers = new Headers({
        'Verity-Signature': delivery.headers['verity-signature'] as string,
      });
      assert.equal(
        verity.webhooks.verify(delivery.body.toString(), headers, WEBHOOK_SECRET).id,
        job.id,
      );

      const reason = (fn: () => unknown) => {
        try {
          fn();
        } catch (error) {
          assert.ok(error instanceof WebhookSignatureError);
          return error.reason;
        }
        return 'accepted';
      };
      const tampered = Buffer.from(delivery.body.toString().replace('"done"', '"failed"'));
      assert.equal(
        reason(() => verity.webhooks.verify(tampered, delivery.headers, WEBHOOK_SECRET)),
        'invalid',
      );
      assert.equal(
        reason(() =>
          verity.webhooks.verify(delivery.body, delivery.headers, 'another-secret-0123456789'),
        ),
        'invalid',
      );
      const t = Number(/t=(\d+)/.exec(delivery.headers['verity-signature'] as string)![1]);
      assert.equal(
        reason(() =>
          verity.webhooks.verify(delivery.body, delivery.headers, WEBHOOK_SECRET, {
            nowSeconds: t + 301,
          }),
        ),
        'expired',
      );
      assert.equal(
        reason(() => verity.webhooks.verify(delivery.body, {}, WEBHOOK_SECRET)),
        'invalid',
      );
    } finally {
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });

  it('an AbortSignal stops a wait at once; the job keeps running', async () => {
    const account = await stack.account(100, 'abort');
    const stuck = await stuckJob(account.accountId);
    const controller = new AbortController();
    const verity = client({
      apiKey: account.apiKey,
      sleep: () => {
        controller.abort(new Error('user stopped'));
        return new Promise((_, reject) =>
          setImmediate(() => reject(controller.signal.reason as Error)),
        );
      },
    });
    await assert.rejects(
      verity.batch.wait(stuck.id, { signal: controller.signal }),
      /user stopped/,
    );
    await assert.rejects(verity.batch.get(stuck.id, { signal: controller.signal }), /user stopped/);
    assert.equal((await client({ apiKey: account.apiKey }).batch.get(stuck.id)).status, 'queued');
    await stuck.release();
  });

  it('reads VERITY_API_KEY and VERITY_URL, and refuses to run in a browser unless told', async () => {
    const saved = { key: process.env.VERITY_API_KEY, url: process.env.VERITY_URL };
    process.env.VERITY_API_KEY = apiKey;
    process.env.VERITY_URL = baseUrl + '/';
    try {
      const fromEnv = new Verity();
      assert.equal(fromEnv.baseUrl, baseUrl);
      assert.equal((await fromEnv.ping()).account.id, accountId);
      delete process.env.VERITY_API_KEY;
      assert.throws(() => new Verity(), /VERITY_API_KEY/);
    } finally {
      process.env.VERITY_API_KEY = saved.key;
      process.env.VERITY_URL = saved.url;
      if (saved.key === undefined) delete process.env.VERITY_API_KEY;
      if (saved.url === undefined) delete process.env.VERITY_URL;
    }
    const g = globalThis as { window?: unknown; document?: unknown };
    g.window = {};
    g.document = {};
    try {
      assert.throws(() => client(), /only from a backend/);
      assert.ok(client({ dangerouslyAllowBrowser: true }) instanceof Verity);
    } finally {
      delete g.window;
      delete g.document;
    }
  });
});

describe('@verity/client retries against a small rate-limit burst', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  after(() => stack.close());

  it('retries a 429 three times, waiting 1 s, 2 s, 4 s, then throws RateLimitedError', async () => {
    const { apiKey } = await stack.account(100, 'limited');
    const { sleeps, sleep } = recordedSleep();
    const events: RetryEvent[] = [];
    const recorder = recordedFetch();
    const verity = new Verity({
      apiKey,
      baseUrl: stack.client.baseUrl,
      sleep,
      fetch: recorder.fetch,
      onRetry: (e) => events.push(e),
    });
    await verity.ping();
    await verity.ping();
    const error = await verity.ping().then(
      () => assert.fail('expected a 429'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterSeconds, 1);
    assert.deepEqual(sleeps, [1_000, 2_000, 4_000]);
    assert.deepEqual(
      events.map((e) => [e.retry, e.waitMs]),
      [
        [1, 1_000],
        [2, 2_000],
        [3, 4_000],
      ],
    );
    assert.deepEqual(
      recorder.calls.map((c) => c.status),
      [200, 200, 429, 429, 429, 429],
    );

    // maxRetries: 0 throws on the first 429.
    const once = recordedFetch();
    await assert.rejects(
      new Verity({
        apiKey,
        baseUrl: stack.client.baseUrl,
        maxRetries: 0,
        fetch: once.fetch,
      }).ping(),
      RateLimitedError,
    );
    assert.equal(once.calls.length, 1);
  });
});
