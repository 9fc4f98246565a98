// A test key's batch job on the embedded engine: every magic input's row, scored offline
// (docs/test-mode.md, "Batch with a test key").
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { formatResultRow } from '@verity/batch';
import type { BatchType } from '@verity/contracts';
import { MAGIC_EMAILS, MAGIC_IPS, MAGIC_PHONES } from '@verity/validation';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, postBatch, waitForJob } from './batch-helpers';

describe('test keys (batch jobs)', () => {
  let stack: TestStack;
  let testKey: string;

  before(async () => {
    stack = await startTestStack({
      env: { BATCH_CHUNK_ROWS: '4', RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
      modules: [IngestModule, ScorerModule],
    });
    const owner = await stack.account(1_000);
    const keys = stack.app.get(ApiKeysService);
    testKey = (await keys.create(owner.accountId, 'ci', undefined, 'test')).key;
  });
  after(() => stack.close());

  /** Runs a test-key job over `rows`; returns its result lines without the header. */
  async function run(type: BatchType, rows: string[]): Promise<string[]> {
    const created = await postBatch(stack.client, testKey, [
      ['type', type],
      ['file', `${rows.join('\n')}\n`],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const client = stack.client.withKey(testKey);
    const final = (await waitForJob(client, created.body.id as string)).at(-1)!;
    assert.equal(final.body.status, 'done', JSON.stringify(final.body));
    const lines = (await download(final.body.result_url as string)).text.split('\n');
    return lines.slice(1, -1).map((line) => `${line}\n`);
  }

  it('answers every magic email, number and IP address as documented, asking no DNS', async () => {
    stack.dns.queries.length = 0;
    const emails = Object.entries(MAGIC_EMAILS);
    assert.deepEqual(
      await run(
        'email',
        emails.map(([input]) => input),
      ),
      emails.map(([input, answer]) => formatResultRow('email', { input, ...answer })),
    );
    const phones = Object.entries(MAGIC_PHONES);
    assert.deepEqual(
      await run(
        'phone',
        phones.map(([input]) => input),
      ),
      phones.map(([input, m]) => formatResultRow('phone', { input, ...m.fields, hlr: null })),
    );
    const ips = Object.entries(MAGIC_IPS);
    assert.deepEqual(
      await run(
        'ip',
        ips.map(([input]) => input),
      ),
      ips.map(([input, answer]) => formatResultRow('ip', { input, ...answer })),
    );
    const [other] = await run('email', ['jane@gmail.com']);
    assert.match(other, /^jane@gmail\.com,true,false,false,\d+,unknown,/);
    assert.deepEqual(stack.dns.queries, []);
  });
});
