import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createBlobStore, type BlobStore } from '@verity/ports';
import { LoopbackDnsServer, type TestResponse } from '@verity/testing';
import { download, eventually, postBatch, unsigned } from '../e2e/batch-helpers';
import { distributedSuite, phoneInput, ROWS, startCluster, type Cluster } from './cluster';

/** Consumer lag of every group on the batch topics, as the workers' /metrics report it. */
async function lagOf(cluster: Cluster): Promise<number> {
  let sum = 0;
  let series = 0;
  for (const worker of [cluster.ingest, ...cluster.scorers]) {
    const text = await (await fetch(`http://127.0.0.1:${worker.port}/metrics`)).text();
    for (const match of text.matchAll(/^verity_kafka_consumer_lag\{[^}]*\} (\S+)$/gm)) {
      sum += Number(match[1]);
      series++;
    }
  }
  // Both groups must be reported: no series would read as no lag.
  return series >= 2 ? sum : Number.NaN;
}

/** Until the scorers and the assembler have handled everything published. */
async function settled(cluster: Cluster): Promise<void> {
  await eventually(
    async () => ((await lagOf(cluster)) === 0 ? true : undefined),
    'every consumer caught up',
    120_000,
  );
}

distributedSuite('cancel while scorers are busy (Kafka, S3, two scorers)', () => {
  let cluster: Cluster;
  let dns: LoopbackDnsServer;
  let pg: Client;
  let blobs: BlobStore;

  /** Charge, processed rows, recorded rows and refund rows of a job, from the database. */
  async function books(id: string) {
    const ledger = await pg.query<{ reason: string; delta: number }>(
      'SELECT reason, delta::int AS delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [id],
    );
    const [job] = (
      await pg.query<{ processed_rows: number; refunded_rows: number; total_rows: number }>(
        'SELECT processed_rows, refunded_rows, total_rows FROM batch_jobs WHERE id = $1',
        [id],
      )
    ).rows;
    const [{ rows }] = (
      await pg.query<{ rows: number }>(
        'SELECT coalesce(sum(rows), 0)::int AS rows FROM batch_chunks WHERE job_id = $1',
        [id],
      )
    ).rows;
    return {
      charge: ledger.rows.reduce((sum, row) => sum - row.delta, 0),
      debits: ledger.rows.filter((r) => r.reason === 'batch_row').map((r) => r.delta),
      refunds: ledger.rows.filter((r) => r.reason === 'batch_refund').map((r) => r.delta),
      processed: job.processed_rows,
      refunded: job.refunded_rows,
      total: job.total_rows,
      chunkRows: rows,
    };
  }

  /** Objects left in S3 for a job: its parts, any result file, its upload. */
  async function stored(id: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of blobs.list(`results/${id}/`)) keys.push(key);
    if (await blobs.head(`uploads/${id}.csv`)) keys.push(`uploads/${id}.csv`);
    return keys;
  }

  /** Warnings and errors of every process that name the job (pino JSON lines, level ≥ 40). */
  async function logLinesAbout(id: string): Promise<string[]> {
    const lines: string[] = [];
    for (const name of ['api', 'ingest', 'scorer-a', 'scorer-b']) {
      const text = await readFile(join(cluster.logDir, `${name}.log`), 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        if (!line.includes(id)) continue;
        const level = /"level":(\d+)/.exec(line);
        if (level === null || Number(level[1]) >= 40) lines.push(line);
      }
    }
    return lines;
  }

  /** The recorded chunks of a job, in order. */
  async function recordedChunks(id: string): Promise<number[]> {
    const chunks = await pg.query<{ chunk_no: number }>(
      'SELECT chunk_no FROM batch_chunks WHERE job_id = $1 ORDER BY chunk_no',
      [id],
    );
    return chunks.rows.map((r) => r.chunk_no);
  }

  /**
   * The checks every cancelled job must pass once everything settled: charged for the rows
   * scored, which its partial file holds, refunded the others once, and the message says so.
   */
  async function assertCancelledOnce(id: string, cancelled: TestResponse['body']): Promise<void> {
    const b = await books(id);
    assert.deepEqual(b.debits, [-b.total]);
    assert.equal(b.refunds.length, 1, 'exactly one refund');
    assert.equal(b.charge, b.processed, 'charged for the processed rows');
    assert.equal(b.processed, b.chunkRows, 'processed rows are the recorded chunks');
    assert.equal(b.refunded, b.total - b.processed);
    assert.equal(b.refunds[0], b.refunded, 'the ledger refunds the refunded rows');
    assert.equal(
      cancelled.error.message,
      `the job was cancelled; ${b.refunded.toLocaleString('en')} unprocessed rows refunded (${b.refunded.toLocaleString('en')} credits)`,
    );
    assert.equal(cancelled.processed_rows, b.processed);
    if (b.processed === 0) {
      assert.equal(cancelled.partial_result_url, null);
      assert.deepEqual(await stored(id), []);
    } else {
      assert.deepEqual(await stored(id), [`results/${id}/partial.csv`]);
      const partial = await download(cancelled.partial_result_url as string);
      assert.equal(partial.status, 200);
      assert.equal(partial.text.trimEnd().split('\n').length, b.processed + 1);
    }
    const again = await cluster.client.delete(`/v1/batch/${id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(unsigned(again.body), unsigned(cancelled));
    assert.deepEqual(await books(id), b, 'a DELETE after the end changes nothing');
    assert.deepEqual(await logLinesAbout(id), [], 'no warning or error about the job');
  }

  before(async () => {
    dns = new LoopbackDnsServer({ zone: {} });
    const server = await dns.start();
    cluster = await startCluster('cancel', {
      env: {
        DNS_SERVERS: `${server.host}:${server.port}`,
        DNS_TIMEOUT_MS: '120000',
        BATCH_CHUNK_ROWS: '20',
        BATCH_EMAIL_CONCURRENCY: '2',
        // Each scorer holds a chunk of each of its partitions: a held one blocks no other.
        BATCH_SCORER_CONCURRENCY: '4',
      },
    });
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
    pg = new Client({ connectionString: cluster.database.url });
    await pg.connect();
    blobs = createBlobStore({
      BLOB_STORE: 's3',
      VERITY_HOME: cluster.logDir,
      S3_ENDPOINT: process.env.S3_ENDPOINT,
      S3_REGION: process.env.S3_REGION ?? 'us-east-1',
      S3_BUCKET: process.env.S3_BUCKET,
      S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: true,
    });
  });
  after(async () => {
    dns?.release();
    await pg?.end();
    await cluster?.close();
    await dns?.stop();
  });

  it('charges exactly the rows scored before the cancel: chunks held by scorers are dropped, refunded once', async () => {
    // The first chunk of each partition has no domain to look up and is scored at once; every
    // later chunk waits on the held resolver, each scorer mid-chunk.
    const rows = [
      ...Array.from({ length: 80 }, (_, i) => `not-an-address-${i}`),
      ...Array.from({ length: 400 }, (_, i) => `user${i}@domain${i}.example`),
    ];
    dns.hold();
    const created = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'email'],
      ['file', rows.join('\n') + '\n'],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.id as string;
    await eventually(
      async () => {
        const job = (await cluster.client.get(`/v1/batch/${id}`)).body;
        return job.processed_rows > 0 && dns.queries.length > 0 ? job : undefined;
      },
      'rows scored and scorers waiting on DNS',
      120_000,
    );

    const res = await cluster.client.delete(`/v1/batch/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.error.code, 'cancelled');
    assert.ok(res.body.processed_rows > 0 && res.body.processed_rows < rows.length);
    const twice = await cluster.client.delete(`/v1/batch/${id}`);
    assert.deepEqual(unsigned(twice.body), unsigned(res.body));

    // The scorers get their answers, finish the chunks they hold and find the job ended.
    dns.release();
    await settled(cluster);
    assert.deepEqual(
      unsigned((await cluster.client.get(`/v1/batch/${id}`)).body),
      unsigned(res.body),
    );
    await assertCancelledOnce(id, res.body);
    // The partial file holds exactly the rows of the recorded chunks (20 each), in input order.
    const inputs = (await download(res.body.partial_result_url as string)).text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    const chunks = await recordedChunks(id);
    assert.deepEqual(
      inputs,
      chunks.flatMap((c) => rows.slice(20 * c, 20 * c + 20)),
    );
  });

  it('stops a split cut short by the cancel: nothing published after it counts, nothing is left', async () => {
    const created = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'phone'],
      ['file', phoneInput()],
    ]);
    assert.equal(created.status, 202);
    const id = created.body.id as string;
    const splitRows = async () =>
      (
        await pg.query<{ split_rows: number }>('SELECT split_rows FROM batch_jobs WHERE id = $1', [
          id,
        ])
      ).rows[0].split_rows;
    // Freeze ingest as soon as the first batch of chunks is checkpointed, cancel, let it go on.
    while ((await splitRows()) === 0) await sleep(2);
    cluster.ingest.child.kill('SIGSTOP');
    let res;
    try {
      const checkpoint = await splitRows();
      assert.ok(checkpoint > 0 && checkpoint < ROWS, `mid-split: ${checkpoint} of ${ROWS}`);
      res = await cluster.client.delete(`/v1/batch/${id}`);
    } finally {
      cluster.ingest.child.kill('SIGCONT');
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'cancelled');

    await settled(cluster);
    const [job] = (
      await pg.query<{ status: string; split_rows: number; chunk_count: number | null }>(
        'SELECT status, split_rows, chunk_count FROM batch_jobs WHERE id = $1',
        [id],
      )
    ).rows;
    assert.equal(job.status, 'failed');
    assert.equal(job.chunk_count, null, 'the split never finished');
    assert.ok(job.split_rows < ROWS);
    assert.deepEqual(
      unsigned((await cluster.client.get(`/v1/batch/${id}`)).body),
      unsigned(res.body),
    );
    await assertCancelledOnce(id, res.body);
  });
});
