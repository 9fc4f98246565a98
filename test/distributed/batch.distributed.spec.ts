import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { createTestDatabase, startTestDns, TestClient, type TestDatabase } from '@verity/testing';
import { download, postBatch, waitForJob } from '../e2e/batch-helpers';
import { startDeployable, type Deployable } from './process-harness';

// Real Kafka, Redis (Bull), S3Proxy and PostgreSQL; api, ingest and two scorers as separate
// processes from dist/. `scripts/infra/up.sh` starts the services, `scripts/infra/env.sh` names them.
const REQUIRED = [
  'KAFKA_BROKERS',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
];
const missing = REQUIRED.filter((name) => !process.env[name]);
const skipReason =
  missing.length > 0
    ? `distributed batch tests skipped: ${missing.join(', ')} not set (run scripts/infra/up.sh, then source scripts/infra/env.sh)`
    : false;

const ADMIN_TOKEN = 'distributed-admin-token-0123456789';
const ROWS = 40_000;

/** Deterministic phone input: valid, invalid and formula-looking rows. */
function phoneInput(): string {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    if (i % 97 === 0) lines.push('12');
    else if (i % 89 === 0) lines.push('=1+2');
    else lines.push(`+1415555${String(i % 10_000).padStart(4, '0')}`);
  }
  return lines.join('\n') + '\n';
}

if (missing.length > 0 && process.env.CI === 'true') {
  describe('batch engine, distributed', () => {
    it('has the services it needs', () => {
      assert.fail(
        `CI=true but ${missing.join(', ')} not set: .ci/run must start scripts/infra/up.sh and source scripts/infra/env.sh`,
      );
    });
  });
} else {
  describe(
    'batch engine, distributed (api, ingest, 2 scorers as processes)',
    { skip: skipReason },
    () => {
      let database: TestDatabase;
      let dns: Awaited<ReturnType<typeof startTestDns>>;
      let logDir: string;
      let home: string;
      let env: Record<string, string>;
      let api: Deployable;
      let ingest: Deployable;
      const scorers: Deployable[] = [];
      let client: TestClient;
      let apiKey: string;
      let accountId: string;

      before(async () => {
        database = await createTestDatabase();
        dns = await startTestDns();
        logDir = await mkdtemp(join(tmpdir(), 'verity-distributed-logs-'));
        home = await mkdtemp(join(tmpdir(), 'verity-distributed-home-'));
        env = {
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
        };
        // The API first: it applies the migrations the others then find done.
        api = await startDeployable('api', 'api', env, logDir);
        ingest = await startDeployable('ingest', 'ingest', env, logDir);
        client = new TestClient(`http://127.0.0.1:${api.port}`);
        const res = await fetch(`${client.baseUrl}/admin/accounts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'distributed', credits: 3 * ROWS }),
        });
        assert.equal(res.status, 201);
        ({ api_key: apiKey, account_id: accountId } = (await res.json()) as {
          api_key: string;
          account_id: string;
        });
      });

      after(async () => {
        for (const p of [...scorers, ingest, api]) await p?.stop().catch(() => undefined);
        await dns?.server.stop();
        await database?.drop();
        await rm(home, { recursive: true, force: true });
        if (process.env.KEEP_LOGS !== '1') await rm(logDir, { recursive: true, force: true });
      });

      const job = (id: string) => client.withKey(apiKey).get(`/v1/batch/${id}`);

      it('completes byte-identically after kill -9 of a scorer and of ingest mid-job, charged once', async () => {
        const input = phoneInput();
        scorers.push(await startDeployable('scorer', 'scorer-a', env, logDir));
        scorers.push(await startDeployable('scorer', 'scorer-b', env, logDir));

        // An undisturbed run is the reference.
        const reference = await postBatch(client, apiKey, [
          ['type', 'phone'],
          ['file', input],
        ]);
        assert.equal(reference.status, 202, JSON.stringify(reference.body));
        const referenceDone = (
          await waitForJob(client.withKey(apiKey), reference.body.id, 180_000)
        ).at(-1)!.body;
        assert.equal(referenceDone.status, 'done');
        const expected = (await download(referenceDone.result_url)).text;
        assert.equal(expected.split('\n').length, ROWS + 2);

        // Same file again; one scorer is frozen then killed while the job is provably unfinished.
        const created = await postBatch(client, apiKey, [
          ['type', 'phone'],
          ['file', input],
        ]);
        assert.equal(created.status, 202);
        const id = created.body.id as string;
        let seen = (await job(id)).body;
        while (seen.processed_rows === 0 && seen.status !== 'done') {
          await sleep(20);
          seen = (await job(id)).body;
        }
        for (const s of scorers) s.child.kill('SIGSTOP');
        const frozen = (await job(id)).body;
        assert.equal(
          frozen.status,
          'processing',
          'the job must still be running when the scorer dies',
        );
        assert.ok(frozen.processed_rows < ROWS);
        await scorers[0].kill9();
        // With no scorer running the job cannot finish: kill -9 the splitter/assembler too.
        await ingest.kill9();
        scorers[1].child.kill('SIGCONT');

        // Restart everything that died; redelivered chunks are scored again.
        ingest = await startDeployable('ingest', 'ingest-2', env, logDir);
        scorers[0] = await startDeployable('scorer', 'scorer-a2', env, logDir);
        const done = (await waitForJob(client.withKey(apiKey), id, 240_000)).at(-1)!.body;
        assert.equal(done.status, 'done');
        assert.equal(done.processed_rows, ROWS);
        const actual = (await download(done.result_url)).text;
        assert.equal(actual.length, expected.length);
        assert.ok(actual === expected, 'result differs from the undisturbed run');

        // Charged once per job, nothing refunded; every chunk recorded exactly once.
        const pg = new Client({ connectionString: database.url });
        await pg.connect();
        try {
          const ledger = await pg.query(
            `SELECT reference, delta::int AS delta, reason FROM credit_ledger WHERE account_id = $1 AND reason <> 'grant' ORDER BY id`,
            [accountId],
          );
          const mine = ledger.rows.filter((r) => r.reference === id);
          assert.deepEqual(mine, [{ reference: id, delta: -ROWS, reason: 'batch_row' }]);
          const chunks = await pg.query(
            'SELECT count(*)::int AS n, sum(rows)::int AS rows FROM batch_chunks WHERE job_id = $1',
            [id],
          );
          const [{ chunk_count }] = (
            await pg.query('SELECT chunk_count FROM batch_jobs WHERE id = $1', [id])
          ).rows;
          assert.equal(chunks.rows[0].n, chunk_count);
          assert.equal(chunks.rows[0].rows, ROWS);
        } finally {
          await pg.end();
        }
      });
    },
  );
}
