import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createTestDatabase, startTestDns, TestClient, type TestDatabase } from '@verity/testing';
import { download, postBatch, waitForJob } from '../e2e/batch-helpers';
import { expectedSummary } from '../e2e/batch-summary.fixtures';
import { freePort, startDeployable, type Deployable } from './process-harness';

// Real Kafka, Redis (Bull), S3Proxy and PostgreSQL; api, ingest and scorers as separate
// processes from dist/. `scripts/infra/up.sh` starts the services, `scripts/infra/env.sh` names them.
const REQUIRED = [
  'KAFKA_BROKERS',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
];
const ADMIN_TOKEN = 'distributed-admin-token-0123456789';

/** Rows of the phone job every distributed test runs. */
export const ROWS = 40_000;

/**
 * A suite that needs the real services: skipped with the reason when they are not configured,
 * and failing under CI=true, where .ci/run always starts them.
 */
export function distributedSuite(name: string, body: () => void): void {
  const missing = REQUIRED.filter((variable) => !process.env[variable]);
  if (missing.length > 0 && process.env.CI === 'true') {
    describe(name, () => {
      it('has the services it needs', () => {
        assert.fail(
          `CI=true but ${missing.join(', ')} not set: .ci/run must start scripts/infra/up.sh and source scripts/infra/env.sh`,
        );
      });
    });
    return;
  }
  const skip =
    missing.length > 0
      ? `${name} skipped: ${missing.join(', ')} not set (run scripts/infra/up.sh, then source scripts/infra/env.sh)`
      : false;
  describe(name, { skip }, body);
}

/** Deterministic phone input: valid, invalid and formula-looking rows. */
export function phoneInput(): string {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    if (i % 97 === 0) lines.push('12');
    else if (i % 89 === 0) lines.push('=1+2');
    else lines.push(`+1415555${String(i % 10_000).padStart(4, '0')}`);
  }
  return lines.join('\n') + '\n';
}

/** api and ingest running on the real services, an account, and whatever scorers a test adds. */
export interface Cluster {
  database: TestDatabase;
  logDir: string;
  client: TestClient;
  apiKey: string;
  accountId: string;
  api: Deployable;
  ingest: Deployable;
  scorers: Deployable[];
  /** Starts a worker (ingest or scorer) with the cluster's worker environment. */
  startWorker(kind: 'ingest' | 'scorer', name: string): Promise<Deployable>;
  /** Starts another API instance on the same services; the cluster stops it on close. */
  startApi(name: string): Promise<Deployable>;
  close(): Promise<void>;
}

/** Creates an account through the admin API of the API at `client.baseUrl`. */
export async function createAccount(
  client: TestClient,
  name: string,
  credits: number,
): Promise<{ api_key: string; account_id: string }> {
  const res = await fetch(`${client.baseUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, credits }),
  });
  assert.equal(res.status, 201);
  return (await res.json()) as { api_key: string; account_id: string };
}

/** Starts the API (it applies the migrations the others then find done), then ingest. */
export async function startCluster(
  label: string,
  options: {
    env?: Record<string, string>;
    workerEnv?: Record<string, string>;
    /** A database of the test's own (an outage test's dedicated server); default a fresh one. */
    database?: TestDatabase;
    /** Credits of the test account; default three runs of the job. */
    credits?: number;
  } = {},
): Promise<Cluster> {
  const database = options.database ?? (await createTestDatabase());
  const dns = await startTestDns();
  const logDir = await mkdtemp(join(tmpdir(), `verity-${label}-logs-`));
  const home = await mkdtemp(join(tmpdir(), `verity-${label}-home-`));
  const apiPort = await freePort();
  const env: Record<string, string> = {
    // Links are signed on the public address (every deployable builds them), here the API's.
    PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    VERITY_HOME: home,
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '4',
    DNS_SERVERS: dns.servers,
    ADMIN_TOKEN,
    ROW_BUS: 'kafka',
    JOB_QUEUE: 'bull',
    BLOB_STORE: 's3',
    // Own topics, groups and queues: runs sharing the broker and Redis never meet.
    BATCH_NAMESPACE: `t${randomBytes(5).toString('hex')}`,
    KAFKA_CHUNK_PARTITIONS: '4',
    BATCH_CHUNK_ROWS: '500',
    BATCH_SCORER_CONCURRENCY: '1',
    RATE_LIMIT_PER_SECOND: '10000',
    RATE_LIMIT_BURST: '10000',
    SHUTDOWN_TIMEOUT_MS: '10000',
    ...options.env,
  };
  const workerEnv = { ...env, ...options.workerEnv };
  const startWorker = (kind: 'ingest' | 'scorer', name: string) =>
    startDeployable(kind, name, workerEnv, logDir);

  // Everything opened so far is released if a later step fails: a process or the DNS server
  // left running would keep the test process alive after the failure.
  const processes: Deployable[] = [];
  const apis: Deployable[] = [];
  const release = async () => {
    for (const p of processes) {
      p.child.kill('SIGCONT'); // a test may have frozen it
      await p.stop().catch(() => undefined);
    }
    await dns.server.stop();
    await database.drop();
    await rm(home, { recursive: true, force: true });
    if (process.env.KEEP_LOGS !== '1') await rm(logDir, { recursive: true, force: true });
  };
  try {
    const api = await startDeployable('api', 'api', env, logDir, { port: apiPort });
    processes.push(api);
    const ingest = await startWorker('ingest', 'ingest');
    processes.push(ingest);
    const client = new TestClient(`http://127.0.0.1:${api.port}`);
    const account = await createAccount(client, label, options.credits ?? 3 * ROWS);

    const cluster: Cluster = {
      database,
      logDir,
      client: client.withKey(account.api_key),
      apiKey: account.api_key,
      accountId: account.account_id,
      api,
      ingest,
      scorers: [],
      startWorker,
      async startApi(name) {
        const extra = await startDeployable('api', name, env, logDir);
        apis.push(extra);
        return extra;
      },
      async close() {
        processes.splice(
          0,
          processes.length,
          ...cluster.scorers,
          cluster.ingest,
          ...apis,
          cluster.api,
        );
        await release();
      },
    };
    return cluster;
  } catch (error) {
    await release();
    throw error;
  }
}

/** Runs `input` as a phone job undisturbed and returns its result file: the reference bytes. */
export async function referenceResult(cluster: Cluster, input: string): Promise<string> {
  const created = await postBatch(cluster.client, cluster.apiKey, [
    ['type', 'phone'],
    ['file', input],
  ]);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const done = (await waitForJob(cluster.client, created.body.id, 180_000)).at(-1)!.body;
  assert.equal(done.status, 'done');
  const text = (await download(done.result_url)).text;
  assert.equal(text.split('\n').length, ROWS + 2);
  assert.deepEqual(done.summary, expectedSummary('phone', text), 'the summary counts the file');
  return text;
}

/** Submits `input` again and, once rows are being scored, freezes every scorer (SIGSTOP). */
export async function submitAndFreezeMidJob(cluster: Cluster, input: string): Promise<string> {
  const created = await postBatch(cluster.client, cluster.apiKey, [
    ['type', 'phone'],
    ['file', input],
  ]);
  assert.equal(created.status, 202);
  const id = created.body.id as string;
  let seen = (await cluster.client.get(`/v1/batch/${id}`)).body;
  while (seen.processed_rows === 0 && seen.status !== 'done') {
    await sleep(20);
    seen = (await cluster.client.get(`/v1/batch/${id}`)).body;
  }
  for (const s of cluster.scorers) s.child.kill('SIGSTOP');
  const frozen = (await cluster.client.get(`/v1/batch/${id}`)).body;
  assert.equal(frozen.status, 'processing', 'the job must still be running when disturbed');
  assert.ok(frozen.processed_rows > 0 && frozen.processed_rows < ROWS);
  return id;
}

/**
 * Waits for the job and checks its file equals `expected`, byte for byte, and its summary
 * counts that file's rows (each chunk once, however often it was scored or reported).
 */
export async function assertSameResult(
  cluster: Cluster,
  id: string,
  expected: string,
): Promise<void> {
  const done = (await waitForJob(cluster.client, id, 240_000)).at(-1)!.body;
  assert.equal(done.status, 'done');
  assert.equal(done.processed_rows, ROWS);
  const actual = (await download(done.result_url)).text;
  assert.equal(actual.split('\n').length, ROWS + 2, 'one row per input row');
  assert.ok(actual === expected, 'result differs from the undisturbed run');
  assert.deepEqual(done.summary, expectedSummary('phone', actual), 'the summary counts the file');
}

/** Charged once (one debit, no refund) and every chunk recorded exactly once. */
export async function assertChargedOnceChunksExact(cluster: Cluster, id: string): Promise<void> {
  const pg = new Client({ connectionString: cluster.database.url });
  await pg.connect();
  try {
    const ledger = await pg.query(
      `SELECT reference, delta::int AS delta, reason FROM credit_ledger WHERE account_id = $1 AND reason <> 'grant' ORDER BY id`,
      [cluster.accountId],
    );
    const mine = ledger.rows.filter((r: { reference: string }) => r.reference === id);
    assert.deepEqual(mine, [{ reference: id, delta: -ROWS, reason: 'batch_row' }]);
    const chunks = await pg.query(
      'SELECT count(*)::int AS n, sum(rows)::int AS rows FROM batch_chunks WHERE job_id = $1',
      [id],
    );
    const [{ chunk_count }] = (
      await pg.query<{ chunk_count: number }>('SELECT chunk_count FROM batch_jobs WHERE id = $1', [
        id,
      ])
    ).rows;
    assert.equal(chunks.rows[0].n, chunk_count);
    assert.equal(chunks.rows[0].rows, ROWS);
  } finally {
    await pg.end();
  }
}
