import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LoopbackDnsServer, startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, postBatch, waitForJob } from './batch-helpers';

const ROWS = 300;

describe('batch progress inside a chunk (embedded engine, slow resolver)', () => {
  let stack: TestStack;
  let slow: LoopbackDnsServer;

  before(async () => {
    // Every answer comes late and every row has its own domain: one chunk takes seconds.
    slow = new LoopbackDnsServer({ zone: {}, delayMs: 40 });
    const dns = await slow.start();
    stack = await startTestStack({
      env: {
        DNS_SERVERS: `${dns.host}:${dns.port}`,
        BATCH_EMAIL_CONCURRENCY: '4',
      },
      modules: [IngestModule, ScorerModule],
    });
  });
  after(async () => {
    await stack.close();
    await slow.stop();
  });

  it('reports rows scored while its only chunk is scored; the result and the charge are unchanged', async () => {
    const account = await stack.account(10_000);
    const rows = Array.from({ length: ROWS }, (_, i) => `user${i}@domain${i}.example`);
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', 'email'],
      ['file', rows.join('\n') + '\n'],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const polls = (await waitForJob(account.client, created.body.id as string, 120_000)).map(
      (p) => p.body as { status: string; processed_rows: number; result_url: string },
    );

    const seen = polls.map((p) => p.processed_rows);
    const during = polls.filter(
      (p) => p.status === 'processing' && p.processed_rows > 0 && p.processed_rows < ROWS,
    );
    assert.ok(during.length > 0, `no progress inside the chunk: ${seen.join(' ')}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], seen.join(' '));
    const final = polls.at(-1)!;
    assert.equal(final.status, 'done');
    assert.equal(final.processed_rows, ROWS);

    const lines = (await download(final.result_url)).text.trimEnd().split('\n');
    assert.equal(lines.length, ROWS + 1);
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      rows,
    );
    const ledger = await stack.dataSource.query<{ reason: string; delta: string }[]>(
      'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [created.body.id],
    );
    assert.deepEqual(
      ledger.map((l) => `${l.reason} ${l.delta}`),
      [`batch_row -${ROWS}`],
    );
  });
});
