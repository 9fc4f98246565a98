import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  BLOB_STORE,
  JOB_QUEUE,
  ROW_BUS,
  type BlobStore,
  type JobQueue,
  type RowBus,
} from '@verity/ports';
import {
  BatchJobRepository,
  JobLifecycle,
  batchNames,
  decodeChunk,
  encodeMessage,
  partKey,
  signDownload,
  verifyWebhook,
} from '@verity/batch';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { SplitterService } from '../../apps/ingest/src/splitter/splitter.service';
import { StorageRetentionService } from '../../apps/ingest/src/retention/storage-retention.service';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, eventually, postBatch, waitForJob } from './batch-helpers';

const EMAIL_HEADER = 'input,valid_syntax,mx_found,disposable,score,deliverability,credits_used';

interface Account {
  accountId: string;
  apiKey: string;
}

async function footprint(stack: TestStack, accountId: string) {
  const [{ jobs }] = await stack.dataSource.query(
    'SELECT count(*)::int AS jobs FROM batch_jobs WHERE account_id = $1',
    [accountId],
  );
  const [{ entries }] = await stack.dataSource.query(
    'SELECT count(*)::int AS entries FROM credit_ledger WHERE account_id = $1',
    [accountId],
  );
  const [{ credits_balance }] = await stack.dataSource.query(
    'SELECT credits_balance FROM accounts WHERE id = $1',
    [accountId],
  );
  const blobs = stack.app.get<BlobStore>(BLOB_STORE);
  const uploads: string[] = [];
  for await (const key of blobs.list('uploads/')) uploads.push(key);
  return {
    jobs: Number(jobs),
    entries: Number(entries),
    balance: Number(credits_balance),
    uploads,
  };
}

async function signingSecret(stack: TestStack): Promise<string> {
  const rows = await stack.dataSource.query(
    `SELECT value FROM settings WHERE key = 'download_signing_secret'`,
  );
  return rows[0].value as string;
}

/** Stores `file` as the upload of a new queued job `id` (as POST /v1/batch would, minus the queue). */
async function jobWithUpload(
  stack: TestStack,
  id: string,
  accountId: string,
  type: 'email' | 'ip',
  file: string,
  totalRows: number,
): Promise<void> {
  const uploadKey = `uploads/${id}.csv`;
  await stack.app.get<BlobStore>(BLOB_STORE).put(uploadKey, Buffer.from(file));
  await stack.app.get(JobLifecycle).create({
    id,
    accountId,
    keyId: null,
    type,
    totalRows,
    uploadKey,
    webhookUrl: null,
    baseUrl: stack.client.baseUrl,
    idempotencyKey: null,
    requestHash: null,
  });
}

describe('batch jobs end to end (embedded bus, queue and blob store)', () => {
  let stack: TestStack;
  let owner: Account;

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '3',
        BATCH_MAX_ROWS: '50',
        BATCH_MAX_BYTES: '20000',
        BATCH_MAX_ACTIVE_JOBS: '100',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_BASE_MS: '100',
      },
      modules: [IngestModule, ScorerModule],
    });
    owner = await stack.account(10_000, 'owner');
  });
  after(() => stack.close());

  async function runJob(type: string, file: string | Buffer, account: Account = owner) {
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', type],
      ['file', file],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const client = stack.client.withKey(account.apiKey);
    const polls = await waitForJob(client, created.body.id);
    return { created, polls, final: polls.at(-1)!.body };
  }

  it('names the download after the uploaded file, whatever characters its name has', async () => {
    const names: [string, string][] = [
      ['leads', `attachment; filename="leads-results.csv"; filename*=UTF-8''leads-results.csv`],
      [
        'archive.2026.csv',
        `attachment; filename="archive.2026-results.csv"; filename*=UTF-8''archive.2026-results.csv`,
      ],
      [
        'Kundenliste März (alt).csv',
        `attachment; filename="Kundenliste M_rz (alt)-results.csv"; filename*=UTF-8''Kundenliste%20M%C3%A4rz%20%28alt%29-results.csv`,
      ],
    ];
    const client = stack.client.withKey(owner.apiKey);
    for (const [name, header] of names) {
      const created = await postBatch(
        stack.client,
        owner.apiKey,
        [
          ['type', 'ip'],
          ['file', '8.8.8.8\n'],
        ],
        {},
        name,
      );
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const final = (await waitForJob(client, created.body.id)).at(-1)!.body;
      assert.equal(final.status, 'done');
      const file = await download(final.result_url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-disposition'), header, name);
    }
  });

  it('runs an email job: 202 queued, processed_rows grows to total, signed CSV in input order', async () => {
    const rows = [
      'jane.doe@example.com',
      'temp@mailinator.com',
      'not an email',
      '"=HYPERLINK(""http://evil"",""x"")@example.com"',
      'nobody@nomx.example',
      'jane.doe@example.com',
      '@SUM(1)',
    ];
    const { created, polls, final } = await runJob('email', rows.join('\n') + '\n');
    assert.deepEqual(Object.keys(created.body).sort(), [
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
    assert.equal(created.body.status, 'queued');
    assert.equal(created.body.processed_rows, 0);
    assert.equal(created.body.result_url, null);
    assert.equal(created.body.total_rows, rows.length);
    assert.equal(new Date(created.body.created_at).toISOString(), created.body.created_at);
    const progress = polls.map((p) => p.body.processed_rows as number);
    for (let i = 1; i < progress.length; i++)
      assert.ok(progress[i] >= progress[i - 1], progress.join(' '));
    assert.equal(final.status, 'done');
    assert.equal(final.processed_rows, rows.length);
    assert.match(
      final.result_url,
      new RegExp(`/v1/batch/${final.id}/download\\?sig=[A-Za-z0-9_-]{54}$`),
    );

    const file = await download(final.result_url);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /^text\/csv/);
    // Saved as the CLI saves it: the uploaded file's stem + -results.csv.
    assert.equal(
      file.headers.get('content-disposition'),
      `attachment; filename="input-results.csv"; filename*=UTF-8''input-results.csv`,
    );
    const lines = file.text.split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines[0], EMAIL_HEADER);
    assert.equal(lines.length, rows.length + 1);
    assert.match(lines[1], /^jane\.doe@example\.com,true,true,false,\d+,[a-z_]+,1$/);
    assert.match(lines[2], /^temp@mailinator\.com,true,true,true,\d+,[a-z_]+,1$/);
    assert.match(lines[3], /^not an email,false,/);
    assert.ok(lines[4].startsWith(`"'=HYPERLINK(""http://evil"",""x"")@example.com",`), lines[4]);
    assert.match(lines[5], /^nobody@nomx\.example,true,false,/);
    assert.equal(lines[6], lines[1]);
    assert.ok(lines[7].startsWith("'@SUM(1),false,"), lines[7]);
    for (const line of lines.slice(1)) assert.ok(line.endsWith(',1'), line);

    // A fresh signature on every GET.
    const again = await stack.client.withKey(owner.apiKey).get(`/v1/batch/${final.id}`);
    assert.equal(again.body.status, 'done');
    assert.equal((await download(again.body.result_url)).text, file.text);
  });

  it('signs result links on its own address, never on a host the client names', async () => {
    const spoof = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const created = await postBatch(
      stack.client,
      owner.apiKey,
      [
        ['type', 'email'],
        ['file', 'jane@example.com\n'],
      ],
      spoof,
    );
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const seen = await waitForJob(stack.client.withKey(owner.apiKey), created.body.id);
    assert.equal(seen.at(-1)?.body.status, 'done');
    const polled = await stack.client
      .withKey(owner.apiKey)
      .get(`/v1/batch/${created.body.id}`, spoof);
    assert.ok(
      (polled.body.result_url as string).startsWith(`${stack.client.baseUrl}/v1/batch/`),
      polled.body.result_url,
    );
    const [{ base_url }] = await stack.dataSource.query(
      'SELECT base_url FROM batch_jobs WHERE id = $1',
      [created.body.id],
    );
    assert.equal(base_url, stack.client.baseUrl);
  });

  it('runs a phone job and keeps +14155552671 intact', async () => {
    const { final } = await runJob('phone', '+14155552671\n+447400123456\n12\n');
    assert.equal(final.status, 'done');
    const lines = (await download(final.result_url)).text.split('\n');
    assert.equal(lines[0], 'input,valid,e164,country,line_type,carrier,score,credits_used');
    assert.match(lines[1], /^\+14155552671,true,\+14155552671,US,/);
    assert.match(lines[2], /^\+447400123456,true,\+447400123456,GB,/);
    assert.match(lines[3], /^12,false,/);
    assert.equal(lines.length, 5);
  });

  it('runs an ip job; a row that is not an address still gets a row', async () => {
    const { final } = await runJob('ip', '8.8.8.8\nnot-an-ip\n2001:4860:4860::8888\n10.0.0.1');
    assert.equal(final.status, 'done');
    const lines = (await download(final.result_url)).text.split('\n');
    assert.equal(
      lines[0],
      'input,valid,country,city,asn,asn_org,vpn,proxy,tor,datacenter,abuse_score,credits_used',
    );
    assert.match(lines[1], /^8\.8\.8\.8,true,/);
    assert.equal(lines[2], 'not-an-ip,false,,,,,,,,,,1');
    assert.match(lines[3], /^2001:4860:4860::8888,true,/);
    assert.match(lines[4], /^10\.0\.0\.1,true,/);
    assert.equal(lines.length, 6);
  });

  it('accepts BOM, CRLF, quoted commas, blank lines and a missing final newline, charging only rows', async () => {
    const account = await stack.account(100, 'shapes');
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('a@example.com\r\n\r\n"Doe, Jane"\r\n   \r\n""\r\nb@example.com'),
    ]);
    const { final } = await runJob('email', body, account);
    assert.equal(final.total_rows, 3);
    assert.equal(final.status, 'done');
    const lines = (await download(final.result_url)).text.split('\n');
    assert.deepEqual(
      lines.slice(1, 4).map((l) => l.split(',')[0]),
      ['a@example.com', '"Doe', 'b@example.com'],
    );
    assert.ok(lines[2].startsWith('"Doe, Jane",false,'), lines[2]);
    assert.equal((await footprint(stack, account.accountId)).balance, 97);
  });

  it('skips a header line: charges and scores only the rows under it', async () => {
    const account = await stack.account(100, 'header');
    const body = Buffer.from('"E-Mail"\r\na@example.com\r\nemail@example.com\r\n');
    const { final } = await runJob('email', body, account);
    assert.equal(final.status, 'done');
    assert.equal(final.total_rows, 2);
    const lines = (await download(final.result_url)).text.split('\n');
    assert.equal(lines[0], EMAIL_HEADER);
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      ['a@example.com', 'email@example.com', ''],
    );
    assert.equal((await footprint(stack, account.accountId)).balance, 98);
  });

  it('refuses bad uploads with the documented answer, storing and charging nothing', async () => {
    const account = await stack.account(1_000, 'refusals');
    const before = await footprint(stack, account.accountId);
    const cases: {
      name: string;
      fields: Parameters<typeof postBatch>[2];
      status: number;
      code: string;
    }[] = [
      {
        name: 'invalid UTF-8',
        fields: [
          ['type', 'email'],
          ['file', Buffer.from([0x61, 0xff, 0x0a])],
        ],
        status: 422,
        code: 'unprocessable',
      },
      {
        name: 'two columns',
        fields: [
          ['type', 'email'],
          ['file', 'a@example.com,b@example.com\n'],
        ],
        status: 422,
        code: 'unprocessable',
      },
      {
        name: 'empty file',
        fields: [
          ['type', 'email'],
          ['file', ''],
        ],
        status: 422,
        code: 'unprocessable',
      },
      {
        name: 'only blank lines',
        fields: [
          ['type', 'email'],
          ['file', '\n \r\n\n'],
        ],
        status: 422,
        code: 'unprocessable',
      },
      {
        name: 'too many rows',
        fields: [
          ['type', 'ip'],
          ['file', '1.1.1.1\n'.repeat(51)],
        ],
        status: 422,
        code: 'unprocessable',
      },
      {
        name: 'too large',
        fields: [
          ['type', 'email'],
          ['file', 'x'.repeat(100) + '\n'.repeat(20_000)],
        ],
        status: 413,
        code: 'payload_too_large',
      },
      {
        name: 'missing type',
        fields: [['file', 'a@example.com\n']],
        status: 400,
        code: 'validation_error',
      },
      {
        name: 'unknown type',
        fields: [
          ['type', 'fax'],
          ['file', 'a@example.com\n'],
        ],
        status: 400,
        code: 'validation_error',
      },
      {
        name: 'type after file, unknown',
        fields: [
          ['file', 'a@example.com\n'],
          ['type', 'fax'],
        ],
        status: 400,
        code: 'validation_error',
      },
      { name: 'missing file', fields: [['type', 'email']], status: 400, code: 'validation_error' },
      {
        name: 'bad webhook_url',
        fields: [
          ['type', 'email'],
          ['file', 'a@example.com\n'],
          ['webhook_url', 'ftp://example.com/hook'],
        ],
        status: 400,
        code: 'validation_error',
      },
      {
        name: 'webhook_url not a URL',
        fields: [
          ['webhook_url', 'not a url'],
          ['type', 'email'],
          ['file', 'a@example.com\n'],
        ],
        status: 400,
        code: 'validation_error',
      },
    ];
    for (const c of cases) {
      const res = await postBatch(stack.client, account.apiKey, c.fields);
      assert.equal(res.status, c.status, `${c.name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, c.code, c.name);
      assert.equal(typeof res.body.error.message, 'string');
    }
    assert.deepEqual(await footprint(stack, account.accountId), before);
  });

  it('answers 402 when the balance cannot pay for every row, and stores nothing', async () => {
    const account = await stack.account(2, 'poor');
    const before = await footprint(stack, account.accountId);
    const res = await postBatch(stack.client, account.apiKey, [
      ['type', 'email'],
      ['file', 'a@example.com\nb@example.com\nc@example.com\n'],
    ]);
    assert.equal(res.status, 402);
    assert.equal(res.body.error.code, 'insufficient_credits');
    assert.deepEqual(await footprint(stack, account.accountId), before);
  });

  it('needs an API key to create or read a job', async () => {
    const res = await postBatch(stack.client, undefined, [
      ['type', 'email'],
      ['file', 'a@example.com\n'],
    ]);
    assert.equal(res.status, 401);
    assert.equal(
      (await stack.client.get('/v1/batch/job_00000000000000000000000000000000')).status,
      401,
    );
  });

  it('replays an Idempotency-Key without a second charge; another body with the key is 422', async () => {
    const account = await stack.account(100, 'idempotent');
    const fields: Parameters<typeof postBatch>[2] = [
      ['type', 'email'],
      ['file', 'a@example.com\nb@example.com\n'],
    ];
    const first = await postBatch(stack.client, account.apiKey, fields, {
      'Idempotency-Key': 'order-42',
    });
    const second = await postBatch(stack.client, account.apiKey, fields, {
      'Idempotency-Key': 'order-42',
    });
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const other = await postBatch(
      stack.client,
      account.apiKey,
      [
        ['type', 'email'],
        ['file', 'c@example.com\n'],
      ],
      {
        'Idempotency-Key': 'order-42',
      },
    );
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'unprocessable');
    const state = await footprint(stack, account.accountId);
    assert.equal(state.jobs, 1);
    assert.equal(state.balance, 98);
    await waitForJob(stack.client.withKey(account.apiKey), first.body.id);
  });

  it('digests the file only for an Idempotency-Key: the same body twice without one is two jobs', async () => {
    const account = await stack.account(100, 'digest');
    const fields: Parameters<typeof postBatch>[2] = [
      ['type', 'email'],
      ['file', 'a@example.com\n'],
    ];
    const plain = await postBatch(stack.client, account.apiKey, fields);
    const again = await postBatch(stack.client, account.apiKey, fields);
    const keyed = await postBatch(stack.client, account.apiKey, fields, {
      'Idempotency-Key': 'digest-1',
    });
    assert.deepEqual([plain.status, again.status, keyed.status], [202, 202, 202]);
    assert.notEqual(again.body.id, plain.body.id);
    const rows = await stack.dataSource.query<{ id: string; request_hash: string | null }[]>(
      'SELECT id, request_hash FROM batch_jobs WHERE account_id = $1',
      [account.accountId],
    );
    const hashes = new Map(rows.map((row) => [row.id, row.request_hash]));
    assert.equal(hashes.get(plain.body.id), null);
    assert.equal(hashes.get(again.body.id), null);
    assert.match(hashes.get(keyed.body.id) ?? '', /^[0-9a-f]{64}$/);
    for (const job of [plain, again, keyed])
      await waitForJob(stack.client.withKey(account.apiKey), job.body.id);
  });

  it("hides another account's job and unknown ids behind 404", async () => {
    const created = await postBatch(stack.client, owner.apiKey, [
      ['type', 'ip'],
      ['file', '1.1.1.1\n'],
    ]);
    const stranger = await stack.account(10, 'stranger');
    for (const id of [created.body.id, 'job_ffffffffffffffffffffffffffffffff', 'nonsense']) {
      const res = await stack.client.withKey(stranger.apiKey).get(`/v1/batch/${id}`);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.error.code, 'not_found');
    }
    await waitForJob(stack.client.withKey(owner.apiKey), created.body.id);
  });

  it('checks download signatures: tampered, expired or for another job → 403; unknown job → 404', async () => {
    const a = (await runJob('ip', '1.1.1.1\n')).final;
    const b = (await runJob('ip', '8.8.4.4\n')).final;
    const url = new URL(a.result_url);
    const sig = url.searchParams.get('sig')!;
    const base = `${stack.client.baseUrl}/v1/batch`;
    const secret = await signingSecret(stack);
    const tampered = sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA');
    const expired = signDownload(a.id, Math.floor(Date.now() / 1000) - 10, secret);
    const otherSig = new URL(b.result_url).searchParams.get('sig')!;
    for (const [what, href] of [
      ['tampered', `${base}/${a.id}/download?sig=${tampered}`],
      ['expired', `${base}/${a.id}/download?sig=${expired}`],
      ['other job', `${base}/${a.id}/download?sig=${otherSig}`],
      ['missing', `${base}/${a.id}/download`],
    ] as const) {
      const res = await fetch(href);
      assert.equal(res.status, 403, what);
      assert.equal(
        ((await res.json()) as { error: { code: string } }).error.code,
        'forbidden',
        what,
      );
    }
    const unknown = 'job_0123456789abcdef0123456789abcdef';
    const res = await fetch(
      `${base}/${unknown}/download?sig=${signDownload(unknown, Math.floor(Date.now() / 1000) + 60, secret)}`,
    );
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  it('a resumed split publishes what was not scored (from its checkpoint on a durable bus), skips recorded chunks and gives the same file', async () => {
    const file = Array.from({ length: 9 }, (_, i) => `10.0.0.${i + 1}`).join('\n') + '\n';
    const expected = (await download((await runJob('ip', file)).final.result_url)).text;
    const lines = expected.split('\n').slice(1); // the rows' result lines, 3 per chunk
    // The same file as a job whose splitter died after publishing chunks 0 and 1 and
    // checkpointing only chunk 0; both were scored and recorded meanwhile.
    const id = 'job_44444444444444444444444444444444';
    const blobs = stack.app.get<BlobStore>(BLOB_STORE);
    const repository = stack.app.get(BatchJobRepository);
    await jobWithUpload(stack, id, owner.accountId, 'ip', file, 9);
    await stack.app.get(JobLifecycle).start(id);
    assert.equal(await repository.saveSplitCheckpoint(id, 1, 3), true);
    for (const chunkNo of [0, 1]) {
      const part = lines.slice(3 * chunkNo, 3 * chunkNo + 3).join('\n') + '\n';
      await blobs.put(partKey(id, chunkNo), Buffer.from(part));
      await repository.recordChunk(id, chunkNo, 3);
    }
    const bus = stack.app.get<RowBus>(ROW_BUS);
    const published: number[] = [];
    const publish = bus.publish.bind(bus);
    // Chunks of the job `finished` are recorded here and not delivered: scored, they would end
    // that job while its split still commits its checkpoint.
    const finished = 'job_55555555555555555555555555555555';
    bus.publish = (topic, messages) => {
      if (topic !== batchNames().chunksTopic) return publish(topic, messages);
      for (const m of messages) published.push(decodeChunk(m.value)!.chunkNo);
      return publish(
        topic,
        messages.filter((m) => decodeChunk(m.value)!.jobId !== finished),
      );
    };
    const splitter = stack.app.get(SplitterService);
    // On a durable bus (Kafka) the chunks before the checkpoint are still there: a split that
    // had finished (checkpoint at the end) only sends its split report again.
    await jobWithUpload(stack, finished, owner.accountId, 'ip', file, 9);
    await stack.app.get(JobLifecycle).start(finished);
    await repository.saveSplitCheckpoint(finished, 3, 9);
    const durability = bus as { durable: boolean };
    try {
      durability.durable = true;
      assert.equal(await splitter.split(finished), 3);
      assert.deepEqual(published, []);
      assert.equal(await splitter.split(id), 3);
      assert.deepEqual(published, [2], 'only the chunk after the checkpoint that was not recorded');
      // The in-process bus lost them with the process: every chunk not recorded goes again.
      durability.durable = false;
      published.length = 0;
      assert.equal(await splitter.split(finished), 3);
      assert.deepEqual(published, [0, 1, 2]);
    } finally {
      durability.durable = false;
      bus.publish = publish;
    }
    await stack.app.get(JobLifecycle).fail(finished, 'test clean-up');
    const final = (await waitForJob(stack.client.withKey(owner.apiKey), id)).at(-1)!.body;
    assert.equal(final.status, 'done');
    assert.equal((await download(final.result_url)).text, expected);
  });

  it('deletes the upload at the end, expires the result after RESULT_RETENTION_DAYS (410 gone), aborts abandoned uploads', async () => {
    const blobs = stack.app.get<BlobStore>(BLOB_STORE);
    const { final } = await runJob('ip', '1.1.1.1\n8.8.8.8\n');
    assert.equal(final.status, 'done');
    // Deleted by the clean-up that follows the end (the job may show done a moment before).
    await eventually(
      async () => ((await blobs.head(`uploads/${final.id}.csv`)) === null ? true : undefined),
      'upload deleted when the job ended',
    );
    assert.equal((await download(final.result_url)).status, 200);

    // The job ended 8 days ago (default retention: 7): the link answers 410 before any sweep.
    await stack.dataSource.query(
      `UPDATE batch_jobs SET finished_at = now() - interval '8 days' WHERE id = $1`,
      [final.id],
    );
    const fresh = (await stack.client.withKey(owner.apiKey).get(`/v1/batch/${final.id}`)).body;
    assert.equal(fresh.status, 'done');
    const expired = await fetch(fresh.result_url);
    assert.equal(expired.status, 410);
    assert.deepEqual(await expired.json(), {
      error: {
        code: 'gone',
        message: `the result of batch job ${final.id} has expired: results are kept 7 days after the job ends`,
      },
    });

    // An upload a killed process left behind, started "25 hours ago" as seen by the sweep.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    async function* hanging() {
      yield Buffer.from('1.1.1.1\n');
      await released;
    }
    const abandoned = blobs.put('uploads/job_abandoned.csv', Readable.from(hanging()));
    abandoned.catch(() => undefined);
    const sweeper = stack.app.get(StorageRetentionService);
    let sweep = await sweeper.sweep();
    assert.equal(sweep.abortedUploads, 0, 'an upload in progress is not aborted');
    assert.ok(sweep.purgedJobs >= 1);
    assert.equal(await blobs.head(`results/${final.id}/result.csv`), null);
    const [{ storage_purged_at }] = await stack.dataSource.query(
      'SELECT storage_purged_at FROM batch_jobs WHERE id = $1',
      [final.id],
    );
    assert.ok(storage_purged_at instanceof Date);
    assert.equal((await fetch(fresh.result_url)).status, 410);

    sweep = await sweeper.sweep(new Date(Date.now() + 25 * 3_600_000));
    assert.equal(sweep.abortedUploads, 1);
    release();
    await assert.rejects(abandoned);
    assert.equal(await blobs.head('uploads/job_abandoned.csv'), null);
  });

  describe('webhooks and failures', () => {
    let hook: Server;
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];

    before(async () => {
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
    after(() => new Promise<void>((resolve) => hook.close(() => resolve())));

    const hookUrl = () => `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const deliveryFor = (id: string) =>
      eventually(
        () =>
          Promise.resolve(received.find((r) => (JSON.parse(r.body) as { id: string }).id === id)),
        `webhook of ${id}`,
      );

    it('POSTs the done job with a verifiable Verity-Signature', async () => {
      const account = await stack.account(100, 'hooked');
      const created = await postBatch(stack.client, account.apiKey, [
        ['webhook_url', hookUrl()],
        ['type', 'email'],
        ['file', 'jane.doe@example.com\n'],
      ]);
      assert.equal(created.status, 202);
      const delivery = await deliveryFor(created.body.id);
      const [{ webhook_secret }] = await stack.dataSource.query(
        'SELECT webhook_secret FROM accounts WHERE id = $1',
        [account.accountId],
      );
      const now = Math.floor(Date.now() / 1000);
      assert.equal(
        verifyWebhook(
          delivery.headers['verity-signature'] as string,
          delivery.body,
          webhook_secret,
          300,
          now,
        ),
        'ok',
      );
      assert.equal(
        verifyWebhook(
          delivery.headers['verity-signature'] as string,
          delivery.body + ' ',
          webhook_secret,
          300,
          now,
        ),
        'invalid',
      );
      const job = JSON.parse(delivery.body);
      assert.equal(job.status, 'done');
      assert.equal(job.processed_rows, 1);
      assert.equal('error' in job, false, 'error is present only for failed jobs');
      assert.equal((await download(job.result_url)).status, 200);
    });

    it('fails a job whose upload is gone, refunds every row and sends the failed webhook', async () => {
      const account = await stack.account(50, 'lost-upload');
      const jobs = stack.app.get(JobLifecycle);
      const id = 'job_11111111111111111111111111111111';
      await jobs.create({
        id,
        accountId: account.accountId,
        keyId: null,
        type: 'email',
        totalRows: 7,
        uploadKey: `uploads/${id}.csv`,
        webhookUrl: hookUrl(),
        baseUrl: stack.client.baseUrl,
        idempotencyKey: null,
        requestHash: null,
      });
      assert.equal((await footprint(stack, account.accountId)).balance, 43);
      await stack.app
        .get<JobQueue>(JOB_QUEUE)
        .add('ingest', { jobId: id }, { jobId: `split-${id}` });
      const final = (await waitForJob(stack.client.withKey(account.apiKey), id)).at(-1)!.body;
      assert.equal(final.status, 'failed');
      assert.equal(final.result_url, null);
      assert.equal((await footprint(stack, account.accountId)).balance, 50);
      const refunds = await stack.dataSource.query(
        `SELECT delta FROM credit_ledger WHERE account_id = $1 AND reason = 'batch_refund' AND reference = $2`,
        [account.accountId, id],
      );
      assert.deepEqual(
        refunds.map((r: { delta: string }) => Number(r.delta)),
        [7],
      );
      const error = {
        code: 'internal_error',
        message:
          'the uploaded file is no longer available; 7 unprocessed rows refunded (7 credits)',
      };
      assert.deepEqual(final.error, error);
      const delivery = await deliveryFor(id);
      assert.equal(JSON.parse(delivery.body).status, 'failed');
      assert.deepEqual(JSON.parse(delivery.body).error, error);
    });

    it('fails a file the splitter refuses as unprocessable, saying why, and deletes its upload', async () => {
      const account = await stack.account(50, 'two-columns');
      const id = 'job_33333333333333333333333333333333';
      const uploadKey = `uploads/${id}.csv`;
      // A file that skipped the upload inspector: the reader refuses its second column, with
      // the message the upload would have given.
      await jobWithUpload(stack, id, account.accountId, 'email', 'a@x.io\nb@x.io,c\n', 2);
      await stack.app
        .get<JobQueue>(JOB_QUEUE)
        .add('ingest', { jobId: id }, { jobId: `split-${id}` });
      const final = (await waitForJob(stack.client.withKey(account.apiKey), id)).at(-1)!.body;
      assert.equal(final.status, 'failed');
      assert.deepEqual(final.error, {
        code: 'unprocessable',
        message:
          'the file cannot be split: line 2 has more than one column (quote a value that contains a comma); 2 unprocessed rows refunded (2 credits)',
      });
      await eventually(async () => {
        const left = (await footprint(stack, account.accountId)).uploads;
        return left.includes(uploadKey) ? undefined : true;
      }, 'upload deleted after the failure');
    });

    it('refunds only the unprocessed rows when a chunk is dead-lettered, once', async () => {
      const account = await stack.account(50, 'dead-letter');
      const jobs = stack.app.get(JobLifecycle);
      const repository = stack.app.get(BatchJobRepository);
      const id = 'job_22222222222222222222222222222222';
      await jobs.create({
        id,
        accountId: account.accountId,
        keyId: null,
        type: 'email',
        totalRows: 6,
        uploadKey: `uploads/${id}.csv`,
        webhookUrl: null,
        baseUrl: null,
        idempotencyKey: null,
        requestHash: null,
      });
      await jobs.start(id);
      const blobs = stack.app.get<BlobStore>(BLOB_STORE);
      await blobs.put(partKey(id, 0), Buffer.from('a@x.io,scored\nb@x.io,scored\n'));
      await repository.recordChunk(id, 0, 2);
      const bus = stack.app.get<RowBus>(ROW_BUS);
      const failure = encodeMessage({
        v: 1,
        kind: 'chunk_failed',
        jobId: id,
        chunkNo: 1,
        reason: 'engine down',
      });
      await bus.publish(batchNames().progressTopic, [
        { key: id, value: failure },
        { key: id, value: failure },
      ]);
      const final = (await waitForJob(stack.client.withKey(account.apiKey), id)).at(-1)!.body;
      assert.equal(final.status, 'failed');
      assert.equal(final.processed_rows, 2);
      assert.deepEqual(final.error, {
        code: 'internal_error',
        message:
          'chunk 1 could not be processed after repeated attempts; 4 unprocessed rows refunded (4 credits)',
      });
      // 50 - 6 + 4: the two scored rows stay paid.
      assert.equal((await footprint(stack, account.accountId)).balance, 48);
      // A completion that arrives after the end is not recorded: what is paid stays what was refunded against.
      assert.equal(await repository.recordChunk(id, 2, 2), null);
      assert.equal(await repository.recordedRows(id), 2);
      const [{ refunded_rows }] = await stack.dataSource.query(
        'SELECT refunded_rows FROM batch_jobs WHERE id = $1',
        [id],
      );
      assert.equal(refunded_rows, 4);
      // The two scored rows it stays charged for are its partial file, under the result header:
      // linked from the failure on, 503 with Retry-After while the end effects write it.
      const partial = await eventually(async () => {
        const answer = await download(final.partial_result_url as string);
        if (answer.status === 503) assert.equal(answer.headers.get('retry-after'), '2');
        else return answer;
      }, 'the partial file');
      assert.equal(partial.status, 200);
      assert.equal(partial.text.split('\n').slice(1).join('\n'), 'a@x.io,scored\nb@x.io,scored\n');
    });
  });
});
