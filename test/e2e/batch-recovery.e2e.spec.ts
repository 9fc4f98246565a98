import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { BatchAssemblyRepository, batchNames } from '@verity/batch';
import { ROW_BUS, type RowBus } from '@verity/ports';
import {
  createTestDatabase,
  LoopbackDnsServer,
  startTestStack,
  type TestDatabase,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, eventually, postBatch, waitForJob } from './batch-helpers';

/**
 * The embedded default's recovery (docs/batch.md, "Recovery"): its row bus lives in the
 * process, so whatever was published and not scored is gone after a stop; the next start
 * decides from what was recorded as scored. A resolver that never answers makes every row wait
 * DNS_TIMEOUT_MS, so a job is still being scored when the process stops.
 */
const SLOW_SCORING = {
  BATCH_CHUNK_ROWS: '20',
  BATCH_EMAIL_CONCURRENCY: '4',
  DNS_TIMEOUT_MS: '50',
  RATE_LIMIT_PER_SECOND: '1000',
  RATE_LIMIT_BURST: '1000',
};

/** `rows` addresses at distinct domains (no cache answers for another row). */
function emails(rows: number): string {
  return Array.from({ length: rows }, (_, i) => `user${i}@host${i}.example`).join('\n') + '\n';
}

/** Debits and refunds written for a job. */
async function ledgerOf(stack: TestStack, jobId: string) {
  const rows: { reason: string; delta: number }[] = await stack.dataSource.query(
    `SELECT reason, delta::int AS delta FROM credit_ledger WHERE reference = $1 ORDER BY id`,
    [jobId],
  );
  return rows.map((r) => `${r.reason} ${r.delta}`);
}

/** The job's recorded rows, read straight from the database (no stack needed). */
async function processedRows(url: string, jobId: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ processed_rows: number }>(
      'SELECT processed_rows FROM batch_jobs WHERE id = $1',
      [jobId],
    );
    return Number(rows[0].processed_rows);
  } finally {
    await client.end();
  }
}

describe('batch recovery of the embedded default (in-process row bus and queue)', () => {
  let database: TestDatabase;
  let home: string;
  let silent: LoopbackDnsServer;
  let dnsServers: string;

  before(async () => {
    database = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'verity-recovery-'));
    silent = new LoopbackDnsServer({ zone: {}, silent: true });
    const address = await silent.start();
    dnsServers = `${address.host}:${address.port}`;
  });
  after(async () => {
    await silent.stop();
    await database.drop();
    await rm(home, { recursive: true, force: true });
  });

  /** A whole embedded pipeline on the shared database and data directory. */
  function pipeline(env: Record<string, string> = {}, modules = [IngestModule, ScorerModule]) {
    return startTestStack({
      database,
      env: { VERITY_HOME: home, DNS_SERVERS: dnsServers, ...SLOW_SCORING, ...env },
      modules,
    });
  }

  it('finishes a job stopped mid-scoring with chunks still on the bus: same bytes, one debit', async () => {
    const rows = 400;
    const file = emails(rows);
    // The undisturbed run, for the bytes.
    const reference = await pipeline();
    const account = await reference.account(10_000, 'recovery');
    const undisturbed = await postBatch(reference.client, account.apiKey, [
      ['type', 'email'],
      ['file', file],
    ]);
    assert.equal(undisturbed.status, 202, JSON.stringify(undisturbed.body));
    const [done] = (
      await waitForJob(
        reference.client.withKey(account.apiKey),
        undisturbed.body.id as string,
        120_000,
      )
    ).slice(-1);
    const expected = (await download(done.body.result_url as string)).text;
    await reference.close();

    const first = await pipeline();
    const client = first.client.withKey(account.apiKey);
    const created = await postBatch(first.client, account.apiKey, [
      ['type', 'email'],
      ['file', file],
    ]);
    assert.equal(created.status, 202);
    const jobId = created.body.id as string;
    await eventually(
      async () => {
        const job = await client.get(`/v1/batch/${jobId}`);
        return (job.body.processed_rows as number) >= rows / 4 ? true : undefined;
      },
      'a quarter of the rows scored',
      60_000,
    );
    // Unscored chunks wait on the in-process bus: they are lost with the process.
    const bus = first.app.get<RowBus & { retainedMessages(topic: string): number }>(ROW_BUS);
    const inFlight = bus.retainedMessages(batchNames().chunksTopic);
    assert.ok(inFlight > 0, 'no chunk was waiting on the bus at the stop');
    await first.close(); // the graceful stop: in-flight chunks finish, the rest is dropped
    const recorded = await processedRows(database.url, jobId);

    const second = await pipeline();
    const [end] = (await waitForJob(second.client.withKey(account.apiKey), jobId, 120_000)).slice(
      -1,
    );
    assert.equal(end.body.status, 'done', JSON.stringify(end.body));
    assert.equal((await download(end.body.result_url as string)).text, expected);
    assert.deepEqual(await ledgerOf(second, jobId), [`batch_row -${rows}`]);
    const scoredAfter = await second.metrics!.registry.getSingleMetricAsString(
      'verity_batch_rows_processed_total',
    );
    console.log(
      `# stopped with ${inFlight} chunk(s) on the bus; ${recorded} of ${rows} rows recorded; after the restart: ${scoredAfter
        .split('\n')
        .filter((l) => l.includes('type="email"'))
        .join(' ')}`,
    );
    await second.close();
  });

  it('recovers a stalled job, then fails it with a refund when it still makes no progress', async () => {
    const rows = 60;
    // No scorer: the published chunks are never scored, so the job stalls.
    const stack = await pipeline(
      {
        BATCH_STALL_MS: '300',
        BATCH_RECOVERY_INTERVAL_MS: '200',
        BATCH_STALL_RECOVERIES: '2',
      },
      [IngestModule],
    );
    const account = await stack.account(1_000, 'stalled');
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', 'email'],
      ['file', emails(rows)],
    ]);
    const jobId = created.body.id as string;
    const idle = await eventually(async () => {
      const text = await stack.metrics!.registry.getSingleMetricAsString(
        'verity_batch_job_idle_seconds',
      );
      const m = /status="processing"} ([\d.]+)/.exec(text);
      return m && Number(m[1]) > 0 ? Number(m[1]) : undefined;
    }, 'the idle metric to report the job');
    assert.ok(idle > 0);
    const [end] = (await waitForJob(stack.client.withKey(account.apiKey), jobId, 60_000)).slice(-1);
    assert.equal(end.body.status, 'failed');
    assert.equal((end.body.error as { code: string }).code, 'internal_error');
    assert.match((end.body.error as { message: string }).message, /refunded/);
    assert.deepEqual(await ledgerOf(stack, jobId), [`batch_row -${rows}`, `batch_refund ${rows}`]);
    const recoveries = await stack.metrics!.registry.getSingleMetricAsString(
      'verity_batch_recoveries_total',
    );
    assert.match(recoveries, /outcome="republished"} 2\b/);
    assert.match(recoveries, /outcome="failed"} 1\b/);
    // The job's count and its failure tell the same recoveries: the two that were made.
    const [stored] = await stack.dataSource.query<
      { stall_recoveries: number; failure_reason: string }[]
    >('SELECT stall_recoveries, failure_reason FROM batch_jobs WHERE id = $1', [jobId]);
    assert.equal(stored.stall_recoveries, 2);
    assert.match(stored.failure_reason, /^no progress after 2 recoveries,/);
    await stack.close();
  });

  it('a restarted ingest gives back the assembly claims its name held, and only those', async () => {
    const stack = await pipeline({ INSTANCE_ID: 'ingest-a' }, [IngestModule]);
    const account = await stack.account(100, 'claims');
    const jobs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await postBatch(stack.client, account.apiKey, [
        ['type', 'email'],
        ['file', emails(2)],
      ]);
      assert.equal(created.status, 202, JSON.stringify(created.body));
      jobs.push(created.body.id as string);
    }
    // Claims as a run of `ingest-a` that died mid-assembly left one, and a live `ingest-b` holds.
    const claim = (jobId: string, token: string) =>
      stack.dataSource.query(
        `UPDATE batch_jobs SET assembly_token = $2, assembly_lease_until = now() + interval '1 hour' WHERE id = $1`,
        [jobId, token],
      );
    await claim(jobs[0], 'ingest-a/dead');
    await claim(jobs[1], 'ingest-b/alive');
    await stack.close();
    const restarted = await pipeline({ INSTANCE_ID: 'ingest-a' }, [IngestModule]);
    const tokens = await restarted.dataSource.query<
      { id: string; assembly_token: string | null }[]
    >('SELECT id, assembly_token FROM batch_jobs WHERE id = ANY($1::text[])', [jobs]);
    const byId = new Map(tokens.map((t) => [t.id, t.assembly_token]));
    assert.equal(byId.get(jobs[0]), null);
    assert.equal(byId.get(jobs[1]), 'ingest-b/alive');
    await restarted.close();
  });

  it('gives an assembly claim back when assembly fails, retrying the release while it fails', async () => {
    const stack = await pipeline({}, [IngestModule]);
    const repository = stack.app.get(BatchAssemblyRepository);
    const account = await stack.account(100, 'release');
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', 'email'],
      ['file', emails(2)],
    ]);
    const jobId = created.body.id as string;
    const jobRow = async () =>
      (
        await stack.dataSource.query<
          { chunk_count: number | null; assembly_token: string | null }[]
        >('SELECT chunk_count, assembly_token FROM batch_jobs WHERE id = $1', [jobId])
      )[0];
    await eventually(
      async () => ((await jobRow()).chunk_count !== null ? true : undefined),
      'the split report',
    );
    // Ready to assemble (no scorer here: pretend every chunk is in).
    await stack.dataSource.query('UPDATE batch_jobs SET chunks_done = chunk_count WHERE id = $1', [
      jobId,
    ]);
    // The database refuses the first two releases (as while it restarts).
    const target = repository as unknown as {
      releaseAssembly(jobId: string, token: string): Promise<void>;
    };
    const release = target.releaseAssembly.bind(repository);
    let refusals = 2;
    const attempts: string[] = [];
    target.releaseAssembly = async (id, token) => {
      attempts.push(token);
      if (refusals-- > 0) throw new Error('connection terminated');
      return release(id, token);
    };
    await assert.rejects(
      repository.tryAssembly(jobId, 'ingest-x', () => Promise.reject(new Error('upload failed'))),
      /upload failed/,
    );
    await eventually(
      async () => ((await jobRow()).assembly_token === null ? true : undefined),
      'the claim given back',
    );
    assert.equal(attempts.length, 3);
    assert.ok(attempts.every((t) => t.startsWith('ingest-x/')));
    await stack.close();
  });
});
