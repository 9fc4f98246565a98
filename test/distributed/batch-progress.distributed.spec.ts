import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LoopbackDnsServer } from '@verity/testing';
import { download, postBatch, waitForJob } from '../e2e/batch-helpers';
import { distributedSuite, startCluster, type Cluster } from './cluster';

const ROWS = 300;

distributedSuite(
  'batch progress inside a chunk, distributed (scorer on Kafka, slow resolver)',
  () => {
    let cluster: Cluster;
    let slow: LoopbackDnsServer;

    before(async () => {
      // Every answer comes late and every row has its own domain: the one chunk takes seconds.
      slow = new LoopbackDnsServer({ zone: {}, delayMs: 40 });
      const dns = await slow.start();
      cluster = await startCluster('progress', {
        env: {
          DNS_SERVERS: `${dns.host}:${dns.port}`,
          BATCH_CHUNK_ROWS: '10000',
          BATCH_EMAIL_CONCURRENCY: '4',
        },
      });
      cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    });
    after(async () => {
      await cluster?.close();
      await slow?.stop();
    });

    it('reports rows scored while the chunk is scored; the result and the charge are unchanged', async () => {
      const rows = Array.from({ length: ROWS }, (_, i) => `user${i}@domain${i}.example`);
      const created = await postBatch(cluster.client, cluster.apiKey, [
        ['type', 'email'],
        ['file', rows.join('\n') + '\n'],
      ]);
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const polls = (await waitForJob(cluster.client, created.body.id as string, 180_000)).map(
        (p) => p.body as { status: string; processed_rows: number; result_url: string },
      );

      const seen = polls.map((p) => p.processed_rows);
      assert.ok(
        polls.some(
          (p) => p.status === 'processing' && p.processed_rows > 0 && p.processed_rows < ROWS,
        ),
        `no progress inside the chunk: ${seen.join(' ')}`,
      );
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], seen.join(' '));
      const final = polls.at(-1)!;
      assert.equal(final.status, 'done');
      assert.equal(final.processed_rows, ROWS);
      const lines = (await download(final.result_url)).text.trimEnd().split('\n');
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(',')[0]),
        rows,
      );

      const pg = new Client({ connectionString: cluster.database.url });
      await pg.connect();
      try {
        const ledger = await pg.query<{ reason: string; delta: string }>(
          'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
          [created.body.id],
        );
        assert.deepEqual(
          ledger.rows.map((l) => `${l.reason} ${l.delta}`),
          [`batch_row -${ROWS}`],
        );
        const chunks = await pg.query<{ n: number; rows: number }>(
          'SELECT count(*)::int AS n, sum(rows)::int AS rows FROM batch_chunks WHERE job_id = $1',
          [created.body.id],
        );
        assert.deepEqual(chunks.rows[0], { n: 1, rows: ROWS });
      } finally {
        await pg.end();
      }
    });
  },
);
