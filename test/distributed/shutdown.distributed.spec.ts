import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { createTestDatabase, startTestDns, TestClient, type TestDatabase } from '@verity/testing';
import { download, postBatch, waitForJob } from '../e2e/batch-helpers';
import { startDeployable, type Deployable } from './process-harness';

// Graceful shutdown (SIGTERM) of a scorer and of ingest in the middle of a job, with real Kafka,
// Redis (Bull), S3Proxy and PostgreSQL and every deployable its own process from dist/.
// `scripts/infra/up.sh` starts the services, `scripts/infra/env.sh` names them.
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
    ? `distributed shutdown tests skipped: ${missing.join(', ')} not set (run scripts/infra/up.sh, then source scripts/infra/env.sh)`
    : false;

const ADMIN_TOKEN = 'distributed-admin-token-0123456789';
const ROWS = 40_000;
const SHUTDOWN_TIMEOUT_MS = 25_000;

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

/** What one /readyz poll saw: an HTTP status and body, or `closed` once the listener is gone. */
type ReadyObservation =
  | {
      status: number;
      body: { status?: string; error?: { code: string } | string; checks?: object };
    }
  | 'closed';

/** How a SIGTERM went: exit code and signal, time to exit, and what /readyz answered meanwhile. */
interface Termination {
  code: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  readiness: ReadyObservation[];
}

/**
 * Sends SIGTERM to `p` (also SIGCONT, in case the test froze it, so the signal is handled at
 * once), polls its /readyz until it exits, and reports how it ended.
 */
async function terminate(p: Deployable): Promise<Termination> {
  const exited = once(p.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = Date.now();
  p.child.kill('SIGTERM');
  p.child.kill('SIGCONT');
  const readiness: ReadyObservation[] = [];
  let gone = false;
  const polling = (async () => {
    while (!gone) {
      const seen = await fetch(`http://127.0.0.1:${p.port}/readyz`, {
        signal: AbortSignal.timeout(2_000),
      }).then(
        async (res): Promise<ReadyObservation> => ({
          status: res.status,
          body: (await res.json()) as Exclude<ReadyObservation, 'closed'>['body'],
        }),
        (): ReadyObservation => 'closed',
      );
      readiness.push(seen);
      await sleep(10);
    }
  })();
  const [code, signal] = await exited;
  const durationMs = Date.now() - started;
  gone = true;
  await polling;
  return { code, signal, durationMs, readiness };
}

/**
 * Readiness never goes back to ready once it said 503. A 503 is either ours (the draining
 * check, in the API's error shape) or, once the HTTP server is closing, Fastify's own answer to
 * a request on a kept-alive connection. Returns how many of each were seen.
 */
function assertDrainingReadiness(
  name: string,
  seen: ReadyObservation[],
): { draining: number; closing: number } {
  const answers = seen.filter((o) => o !== 'closed');
  const first503 = answers.findIndex((o) => o.status === 503);
  const counts = { draining: 0, closing: 0 };
  if (first503 === -1) return counts;
  for (const o of answers.slice(first503)) {
    assert.equal(o.status, 503, `${name}: /readyz went back to ${o.status} while draining`);
    if (typeof o.body.error === 'object' && o.body.error.code === 'service_unavailable') {
      assert.equal(o.body.status, 'not_ready');
      assert.ok(o.body.checks && 'draining' in o.body.checks, `${name}: 503 without draining`);
      counts.draining++;
    } else {
      assert.equal(o.body.error, 'Service Unavailable', `${name}: unexpected 503 body`);
      counts.closing++;
    }
  }
  return counts;
}

/** The log lines of one deployable (pino JSON), parsed; other lines are skipped. */
async function logLines(logDir: string, name: string): Promise<{ level: number; msg: string }[]> {
  const text = await readFile(join(logDir, `${name}.log`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

if (missing.length > 0 && process.env.CI === 'true') {
  describe('graceful shutdown, distributed', () => {
    it('has the services it needs', () => {
      assert.fail(
        `CI=true but ${missing.join(', ')} not set: .ci/run must start scripts/infra/up.sh and source scripts/infra/env.sh`,
      );
    });
  });
} else {
  describe(
    'graceful shutdown, distributed (api, ingest, 2 scorers as processes)',
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
      // Workers log at info so that the shutdown steps can be checked in their logs.
      const worker = () => ({ ...env, LOG_LEVEL: 'info' });

      before(async () => {
        database = await createTestDatabase();
        dns = await startTestDns();
        logDir = await mkdtemp(join(tmpdir(), 'verity-shutdown-logs-'));
        home = await mkdtemp(join(tmpdir(), 'verity-shutdown-home-'));
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
          SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        };
        // The API first: it applies the migrations the others then find done.
        api = await startDeployable('api', 'api', env, logDir);
        ingest = await startDeployable('ingest', 'ingest', worker(), logDir);
        client = new TestClient(`http://127.0.0.1:${api.port}`);
        const res = await fetch(`${client.baseUrl}/admin/accounts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'shutdown', credits: 3 * ROWS }),
        });
        assert.equal(res.status, 201);
        ({ api_key: apiKey, account_id: accountId } = (await res.json()) as {
          api_key: string;
          account_id: string;
        });
      });

      after(async () => {
        for (const p of [...scorers, ingest, api]) {
          p?.child.kill('SIGCONT');
          await p?.stop().catch(() => undefined);
        }
        await dns?.server.stop();
        await database?.drop();
        await rm(home, { recursive: true, force: true });
        if (process.env.KEEP_LOGS !== '1') await rm(logDir, { recursive: true, force: true });
      });

      const job = (id: string) => client.withKey(apiKey).get(`/v1/batch/${id}`);

      it('SIGTERM to a scorer and to ingest mid-job: exit 0, readiness 503, no chunk lost or duplicated, charged once', async (t) => {
        const input = phoneInput();
        scorers.push(await startDeployable('scorer', 'scorer-a', worker(), logDir));
        scorers.push(await startDeployable('scorer', 'scorer-b', worker(), logDir));

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

        // The same file again. Once rows are being scored, freeze both scorers so the job is
        // provably unfinished when the signal arrives (terminate() resumes the one it stops).
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
        assert.equal(frozen.status, 'processing', 'the job must still run when SIGTERM arrives');
        assert.ok(frozen.processed_rows > 0 && frozen.processed_rows < ROWS);

        const scorerExit = await terminate(scorers[0]);
        assert.deepEqual(
          { code: scorerExit.code, signal: scorerExit.signal },
          { code: 0, signal: null },
          'the scorer exits 0 within SHUTDOWN_TIMEOUT_MS',
        );
        const scorer503 = assertDrainingReadiness('scorer', scorerExit.readiness);
        const afterScorer = (await job(id)).body;
        assert.equal(afterScorer.status, 'processing');

        // Ingest (splitter, assembler) mid-job; scorer-b is still frozen so the job cannot end.
        const ingestExit = await terminate(ingest);
        assert.deepEqual(
          { code: ingestExit.code, signal: ingestExit.signal },
          { code: 0, signal: null },
          'ingest exits 0 within SHUTDOWN_TIMEOUT_MS',
        );
        const ingest503 = assertDrainingReadiness('ingest', ingestExit.readiness);
        t.diagnostic(
          `SIGTERM → exit: scorer ${scorerExit.durationMs} ms (/readyz 503 draining ×${scorer503.draining}, ` +
            `closing ×${scorer503.closing}), ingest ${ingestExit.durationMs} ms (503 draining ×${ingest503.draining}, ` +
            `closing ×${ingest503.closing}); job at ${afterScorer.processed_rows}/${ROWS} rows`,
        );

        // Restart ingest, resume scorer-b and replace scorer-a, as an orchestrator would.
        ingest = await startDeployable('ingest', 'ingest-2', worker(), logDir);
        scorers[1].child.kill('SIGCONT');
        scorers[0] = await startDeployable('scorer', 'scorer-a2', worker(), logDir);
        const done = (await waitForJob(client.withKey(apiKey), id, 240_000)).at(-1)!.body;
        assert.equal(done.status, 'done');
        assert.equal(done.processed_rows, ROWS);
        const actual = (await download(done.result_url)).text;
        assert.equal(actual.split('\n').length, ROWS + 2, 'one row per input row');
        assert.ok(actual === expected, 'result differs from the undisturbed run');

        // Charged once, nothing refunded; every chunk recorded exactly once.
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

        // Each stopped process logged its steps in order, and finished cleanly.
        for (const name of ['scorer-a', 'ingest']) {
          const messages = (await logLines(logDir, name)).map((l) => l.msg);
          const steps = [
            'shutting down',
            'draining: /readyz answers 503, no new work is taken',
            'application closed: in-flight chunks and requests finished, offsets committed',
            ...(name === 'ingest' ? [] : ['engines closed']),
            'database closed',
            'shutdown complete',
          ].map((step) => messages.indexOf(step));
          assert.ok(
            steps.every((at, i) => at !== -1 && (i === 0 || at > steps[i - 1])),
            `${name}: shutdown steps missing or out of order: ${JSON.stringify(steps)}`,
          );
        }
        // Starting against existing topics logs no Kafka "Topic creation errors".
        for (const file of await readdir(logDir)) {
          const text = await readFile(join(logDir, file), 'utf8');
          assert.ok(!text.includes('Topic creation errors'), `${file} logs topic creation errors`);
        }
      });
    },
  );
}
