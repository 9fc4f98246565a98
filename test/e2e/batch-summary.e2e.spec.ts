import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BatchJobRepository, JobLifecycle } from '@verity/batch';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, postBatch, waitForJob, type BatchField } from './batch-helpers';
import {
  expectedSummary,
  fileRows,
  keptRows,
  EMAIL_VALUES,
  IP_VALUES,
  PHONE_VALUES,
} from './batch-summary.fixtures';

describe('batch job summary and downloads filtered by verdict (embedded)', () => {
  let stack: TestStack;
  let apiKey: string;
  let accountId: string;

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        // Several chunks per job: the summary is the sum of every chunk's counts.
        BATCH_CHUNK_ROWS: '3',
        BATCH_MAX_ACTIVE_JOBS: '100',
      },
      modules: [IngestModule, ScorerModule],
    });
    ({ apiKey, accountId } = await stack.account(10_000, 'summary'));
  });
  after(() => stack.close());

  async function run(fields: BatchField[]) {
    const created = await postBatch(stack.client, apiKey, fields);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal(created.body.summary, null, 'no summary before the job ends');
    const final = (await waitForJob(stack.client.withKey(apiKey), created.body.id)).at(-1)!.body;
    assert.equal(final.status, 'done', JSON.stringify(final));
    const file = await download(final.result_url);
    assert.equal(file.status, 200);
    return { final, text: file.text };
  }

  const single = (type: string, values: readonly string[], extra: BatchField[] = []) =>
    run([
      ['type', type],
      ...extra,
      ['file', values.map((v) => `"${v.replace(/"/g, '""')}"`).join('\n') + '\n'],
    ]);

  it('counts an email job by deliverability, as many as the file holds of each', async () => {
    const { final, text } = await single('email', EMAIL_VALUES);
    assert.deepEqual(Object.keys(final.summary), [
      'deliverable',
      'risky',
      'undeliverable',
      'unknown',
    ]);
    assert.deepEqual(final.summary, expectedSummary('email', text));
    assert.equal(
      Object.values<number>(final.summary).reduce((a, b) => a + b, 0),
      EMAIL_VALUES.length,
    );
    assert.ok(final.summary.undeliverable > 0, 'the rows that are no address are undeliverable');
    // The list and a second read show the same summary.
    const list = await stack.client.withKey(apiKey).get('/v1/batch?limit=1');
    assert.deepEqual(list.body.data[0].summary, final.summary);
  });

  it('counts a phone job as valid or invalid', async () => {
    const { final, text } = await single('phone', PHONE_VALUES);
    assert.deepEqual(Object.keys(final.summary), ['valid', 'invalid']);
    assert.deepEqual(final.summary, expectedSummary('phone', text));
    assert.ok(final.summary.valid > 0 && final.summary.invalid > 0, JSON.stringify(final.summary));
  });

  it('counts an ip job per flag, clean and invalid', async () => {
    const { final, text } = await single('ip', IP_VALUES);
    assert.deepEqual(Object.keys(final.summary), [
      'vpn',
      'proxy',
      'tor',
      'datacenter',
      'clean',
      'invalid',
    ]);
    assert.deepEqual(final.summary, expectedSummary('ip', text));
    assert.ok(final.summary.vpn > 0, 'a vpn address is counted');
    assert.ok(final.summary.datacenter > 0, 'a datacenter address is counted');
    assert.equal(final.summary.invalid, 1);
    assert.ok(final.summary.clean > 0);
  });

  it('downloads only the rows of the verdicts asked for, in input order, after the header', async () => {
    const { final, text } = await single('email', EMAIL_VALUES);
    const all = fileRows(text);
    for (const only of [['deliverable', 'risky'], ['undeliverable'], ['unknown', 'deliverable']]) {
      const file = await download(`${final.result_url}&only=${only.join(',')}`);
      assert.equal(file.status, 200);
      assert.match(
        file.headers.get('content-disposition') ?? '',
        new RegExp(`filename="input-results-${only.join('-')}\\.csv"`),
      );
      const expected = keptRows('email', all, only);
      assert.equal(file.text, [all.header, ...expected].join(''));
      assert.equal(
        expected.length,
        only.reduce((n, v) => n + (final.summary[v] as number), 0),
        'as many rows as the summary counts',
      );
    }
    const ip = await single('ip', IP_VALUES);
    const ipRows = fileRows(ip.text);
    const flagged = await download(`${ip.final.result_url}&only=vpn,datacenter,invalid`);
    assert.equal(flagged.status, 200);
    const expected = keptRows('ip', ipRows, ['vpn', 'datacenter', 'invalid']);
    assert.ok(expected.length > 1 && expected.length < ipRows.rows.length);
    assert.equal(flagged.text, [ipRows.header, ...expected].join(''));
  });

  it('filters a multi-column file with quoted and multi-line input cells and fields=all', async () => {
    const header = 'name,email,note';
    const rows = EMAIL_VALUES.map(
      (email, i) => `"Name ""${i}"", X","${email.replace(/"/g, '""')}","line\r\nbreak, ${i}"`,
    );
    const { final, text } = await run([
      ['type', 'email'],
      ['column', 'email'],
      ['fields', 'all'],
      ['file', `${header}\r\n${rows.join('\r\n')}\r\n`],
    ]);
    assert.deepEqual(final.summary, expectedSummary('email', text));
    const all = fileRows(text);
    assert.equal(all.rows.length, EMAIL_VALUES.length);
    const file = await download(`${final.result_url}&only=undeliverable`);
    assert.equal(file.status, 200);
    assert.equal(file.text, [all.header, ...keptRows('email', all, ['undeliverable'])].join(''));
  });

  it('refuses an unknown verdict, one of another type and an empty only with 400, and any only without a valid signature with 403', async () => {
    const { final } = await single('phone', PHONE_VALUES.slice(0, 3));
    for (const [only, message] of [
      [
        'deliverable',
        /"deliverable" is not a verdict of phone jobs: one or more of valid, invalid/,
      ],
      ['valid,bogus', /"bogus" is not a verdict of phone jobs/],
      ['', /only names no verdict/],
      [',', /only names no verdict/],
    ] as const) {
      const res = await fetch(`${final.result_url}&only=${only}`);
      assert.equal(res.status, 400, only);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'validation_error');
      assert.match(body.error.message, message);
    }
    const twice = await fetch(`${final.result_url}&only=valid&only=invalid`);
    assert.equal(twice.status, 400);
    const url = new URL(final.result_url as string);
    const unsigned = `${url.origin}${url.pathname}?only=valid`;
    assert.equal((await fetch(unsigned)).status, 403);
    url.searchParams.set('sig', `${url.searchParams.get('sig')}x`);
    url.searchParams.set('only', 'valid');
    const forged = await fetch(url);
    assert.equal(forged.status, 403);
    assert.equal(((await forged.json()) as { error: { code: string } }).error.code, 'forbidden');
  });

  it('gives a failed job the summary of its scored chunks, and none when nothing was scored', async () => {
    const lifecycle = stack.app.get(JobLifecycle);
    const repository = stack.app.get(BatchJobRepository);
    const job = (id: string) => ({
      id,
      accountId,
      keyId: null,
      type: 'phone' as const,
      totalRows: 9,
      uploadKey: `uploads/${id}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    const scored = 'job_53b00000000000000000000000000001';
    await lifecycle.create(job(scored));
    await lifecycle.start(scored);
    await repository.recordChunk(scored, 0, 3, { valid: 2, invalid: 1 });
    await repository.recordChunk(scored, 1, 3, { valid: 1, invalid: 2 });
    // A redelivered completion is recorded once and counted once.
    await repository.recordChunk(scored, 1, 3, { valid: 3, invalid: 0 });
    await lifecycle.fail(scored, 'test: fails midway');
    const api = stack.client.withKey(apiKey);
    const failed = await api.get(`/v1/batch/${scored}`);
    assert.equal(failed.body.status, 'failed');
    assert.equal(failed.body.processed_rows, 6);
    assert.deepEqual(failed.body.summary, { valid: 3, invalid: 3 });
    // No chunk is recorded after the end, so the summary stays.
    assert.equal(await repository.recordChunk(scored, 2, 3, { valid: 3, invalid: 0 }), null);
    assert.deepEqual((await api.get(`/v1/batch/${scored}`)).body.summary, { valid: 3, invalid: 3 });

    const unscored = 'job_53b00000000000000000000000000002';
    await lifecycle.create(job(unscored));
    await lifecycle.cancel(accountId, 'live', unscored);
    const cancelled = await api.get(`/v1/batch/${unscored}`);
    assert.equal(cancelled.body.status, 'failed');
    assert.equal(cancelled.body.summary, null);
  });
});
