import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { postBatch, waitForJob } from '../e2e/batch-helpers';
import {
  assertChargedOnceChunksExact,
  assertSameResult,
  distributedSuite,
  phoneInput,
  referenceResult,
  ROWS,
  startCluster,
  type Cluster,
} from './cluster';
import type { Deployable } from './process-harness';

/** Rows the scorers scored so far, from their `verity_batch_rows_processed_total`. */
async function scoredRows(scorers: readonly Deployable[]): Promise<number> {
  let sum = 0;
  for (const scorer of scorers) {
    const text = await (await fetch(`http://127.0.0.1:${scorer.port}/metrics`)).text();
    for (const match of text.matchAll(/^verity_batch_rows_processed_total\{[^}]*\} (\S+)$/gm)) {
      sum += Number(match[1]);
    }
  }
  return sum;
}

/** The job's split checkpoint (rows published and committed by the splitter). */
async function splitRows(pg: Client, id: string): Promise<number> {
  const { rows } = await pg.query<{ split_rows: number }>(
    'SELECT split_rows FROM batch_jobs WHERE id = $1',
    [id],
  );
  return rows[0]?.split_rows ?? 0;
}

distributedSuite('split recovery (kill -9 of ingest mid-split)', () => {
  let cluster: Cluster;
  let pg: Client;

  before(async () => {
    // Small chunks make the split long enough (200 chunks, 7 checkpoints) to stop it midway.
    cluster = await startCluster('split-recovery', { env: { BATCH_CHUNK_ROWS: '200' } });
    pg = new Client({ connectionString: cluster.database.url });
    await pg.connect();
  });
  after(async () => {
    await pg?.end();
    await cluster?.close();
  });

  it('resumes from the checkpoint after a restart: same bytes, one debit, rows scored about once', async (t) => {
    const input = phoneInput();
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
    const undisturbed = Date.now();
    const expected = await referenceResult(cluster, input);
    t.diagnostic(`undisturbed run: ${Date.now() - undisturbed} ms`);
    const scoredBefore = await scoredRows(cluster.scorers);

    const created = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'phone'],
      ['file', input],
    ]);
    assert.equal(created.status, 202);
    const id = created.body.id as string;
    // Freeze the splitter as soon as its first batch is checkpointed, then kill it.
    while ((await splitRows(pg, id)) === 0) await sleep(2);
    cluster.ingest.child.kill('SIGSTOP');
    const checkpoint = await splitRows(pg, id);
    assert.ok(checkpoint > 0 && checkpoint < ROWS, `mid-split: ${checkpoint} of ${ROWS} rows`);
    await cluster.ingest.kill9();

    const killed = Date.now();
    cluster.ingest = await cluster.startWorker('ingest', 'ingest-2');
    const restarted = Date.now();
    // When the checkpoint moves again (for the report only; bounded by the job's deadline).
    const resumed = (async () => {
      while ((await splitRows(pg, id)) <= checkpoint && Date.now() < restarted + 60_000)
        await sleep(20);
      return Date.now();
    })();
    // The bound: done within 60 s of the restart.
    const final = (await waitForJob(cluster.client, id, 60_000)).at(-1)!.body;
    t.diagnostic(
      `split stopped at ${checkpoint}/${ROWS} rows; restarted ingest healthy ${restarted - killed} ms after the kill, ` +
        `split resumed ${(await resumed) - killed} ms after the kill, job done ${Date.now() - restarted} ms after the restart`,
    );
    assert.equal(final.status, 'done');
    await assertSameResult(cluster, id, expected);
    await assertChargedOnceChunksExact(cluster, id);

    const scored = (await scoredRows(cluster.scorers)) - scoredBefore;
    t.diagnostic(`scorers scored ${scored} rows for a file of ${ROWS}`);
    assert.ok(scored >= ROWS, `every row scored (${scored})`);
    assert.ok(scored <= 1.1 * ROWS, `at most the chunks in flight scored twice (${scored})`);
  });
});
