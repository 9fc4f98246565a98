import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  outageHarnessMissing,
  parseScrape,
  startDedicatedPostgres,
  startDedicatedRedis,
  startDedicatedS3,
  total,
  type StoppableService,
} from '@verity/testing';
import { postBatch } from '../e2e/batch-helpers';
import {
  assertChargedOnceChunksExact,
  assertSameResult,
  distributedSuite,
  phoneInput,
  referenceResult,
  ROWS,
  startCluster,
  submitAndFreezeMidJob,
  type Cluster,
} from './cluster';

// PostgreSQL, S3 and Redis each stopped for 10 s in the middle of a job, on servers of the
// test's own (never the shared ones; Kafka stays the shared broker). The job must end
// byte-identical to an undisturbed run and be charged once; API calls during the outage must
// be 503 service_unavailable with Retry-After (never 500) and cost nothing; the API's 503s and
// the workers' waits are counted (and logged) against the dependency that was stopped.

const OUTAGE_MS = 10_000;

/** One answer the API gave during an outage. */
interface Answer {
  call: string;
  status: number;
  code?: string;
  retryAfter: string | null;
}

async function balance(cluster: Cluster): Promise<number> {
  const res = await cluster.client.get('/v1/ping');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.credits_remaining as number;
}

/** Calls the API every 250 ms until `until`: a single call, the job, and an upload. */
async function probeDuringOutage(cluster: Cluster, jobId: string, until: number) {
  const answers: Answer[] = [];
  const record = (call: string, res: { status: number; body: any; headers: Headers }) =>
    answers.push({
      call,
      status: res.status,
      code: res.body?.error?.code,
      retryAfter: res.headers.get('retry-after'),
    });
  while (Date.now() < until) {
    record(
      'POST /v1/phone/validate',
      await cluster.client.post('/v1/phone/validate', { phone: '+14155552671' }),
    );
    record('GET /v1/batch/{id}', await cluster.client.get(`/v1/batch/${jobId}`));
    const upload = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'phone'],
      ['file', '+14155552671\n'],
    ]);
    record('POST /v1/batch', upload);
    await sleep(250);
  }
  return answers;
}

/** The outage counters of the API (503s by dependency) and of the workers (by dependency). */
interface OutageCounts {
  unavailable: Record<string, number>;
  workerOutages: Record<string, number>;
}

const DEPENDENCIES = ['postgres', 's3', 'redis', 'kafka', 'network', 'other'];

async function scrape(port: number) {
  return parseScrape(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
}

async function outageCounts(cluster: Cluster): Promise<OutageCounts> {
  const api = await scrape(cluster.api.port);
  const workers = await Promise.all(
    [cluster.ingest, ...cluster.scorers].map((worker) => scrape(worker.port)),
  );
  const counts: OutageCounts = { unavailable: {}, workerOutages: {} };
  for (const dependency of DEPENDENCIES) {
    counts.unavailable[dependency] = total(api, 'verity_upstream_unavailable_total', {
      dependency,
    });
    counts.workerOutages[dependency] = workers.reduce(
      (sum, w) => sum + total(w, 'verity_batch_dependency_outages_total', { dependency }),
      0,
    );
  }
  return counts;
}

/** How much each counter grew between two readings, zeros left out. */
function growth(before: OutageCounts, after: OutageCounts) {
  const grown = (b: Record<string, number>, a: Record<string, number>) =>
    Object.fromEntries(DEPENDENCIES.map((d) => [d, a[d] - b[d]]).filter(([, n]) => n !== 0));
  return {
    unavailable: grown(before.unavailable, after.unavailable),
    workerOutages: grown(before.workerOutages, after.workerOutages),
  };
}

/** How long each worker's log is now, to read what is logged after. */
async function logMarks(cluster: Cluster): Promise<Map<string, number>> {
  const names = [cluster.ingest, ...cluster.scorers].map((w) => w.name);
  const logs = await Promise.all(names.map((n) => readFile(join(cluster.logDir, `${n}.log`))));
  return new Map(names.map((n, i) => [n, logs[i].length]));
}

/** The dependencies the workers logged an outage of ("dependency outage began (postgres: …") since `marks`. */
async function loggedOutagesSince(cluster: Cluster, marks: Map<string, number>): Promise<string[]> {
  const found: string[] = [];
  for (const [name, from] of marks) {
    const log = (await readFile(join(cluster.logDir, `${name}.log`))).subarray(from).toString();
    for (const m of log.matchAll(/dependency outage began \((\w+):/g)) found.push(m[1]);
  }
  return found;
}

/** What each call answered, e.g. `POST /v1/batch: 503×9` — for the test's diagnostics. */
function summary(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const key = `${a.call}: ${a.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}×${n}`).join(', ');
}

const missing = outageHarnessMissing();

distributedSuite(
  'dependency outages mid-job, distributed (dedicated PostgreSQL, S3, Redis)',
  () => {
    if (missing !== null) {
      it(
        'has what the outage harness needs',
        { skip: process.env.CI !== 'true' && `${missing} missing` },
        () => assert.fail(`${missing} missing: .ci/run must install it`),
      );
      return;
    }
    let postgres: StoppableService & { url: string };
    let redis: StoppableService & { url: string };
    let s3: Awaited<ReturnType<typeof startDedicatedS3>>;
    let cluster: Cluster;
    let input: string;
    let expected: string;

    before(async () => {
      [postgres, redis, s3] = await Promise.all([
        startDedicatedPostgres(),
        startDedicatedRedis(),
        startDedicatedS3(),
      ]);
      cluster = await startCluster('outage', {
        database: {
          url: postgres.url,
          description: `dedicated PostgreSQL on port ${postgres.port}`,
          drop: () => Promise.resolve(), // the whole server goes in after()
        },
        env: { REDIS_URL: redis.url, ...s3.env, LOG_LEVEL: 'info' },
        credits: 5 * ROWS, // the reference run, three outages, and the calls made during them
      });
      cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
      cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
      input = phoneInput();
      expected = await referenceResult(cluster, input);
    });
    after(async () => {
      await cluster?.close();
      await Promise.all([postgres?.destroy(), redis?.destroy(), s3?.destroy()]);
    });

    // Every worker writes to PostgreSQL, so all wait its outage out; S3 and Redis they may not meet.
    for (const [name, service, dependency, workersWait] of [
      ['PostgreSQL', () => postgres, 'postgres', true],
      ['S3', () => s3, 's3', false],
      ['Redis', () => redis, 'redis', false],
    ] as const) {
      it(`${name} stopped for 10 s mid-job: same bytes, charged once; the API answers 503 + Retry-After, free, counted as ${dependency}`, async (t) => {
        // Read before the scorers are frozen: a stopped process answers no scrape.
        const countsBefore = await outageCounts(cluster);
        const marks = await logMarks(cluster);
        const id = await submitAndFreezeMidJob(cluster, input);
        const credits = await balance(cluster);
        await service().stop();
        const stoppedAt = Date.now();
        for (const s of cluster.scorers) s.child.kill('SIGCONT'); // they now meet the outage
        const answers = await probeDuringOutage(cluster, id, stoppedAt + OUTAGE_MS);
        await service().start();
        const restartedAt = Date.now();
        await assertSameResult(cluster, id, expected);
        const recoveredMs = Date.now() - restartedAt;
        await assertChargedOnceChunksExact(cluster, id);

        for (const a of answers) {
          assert.ok(a.status < 500 || a.status === 503, `${a.call} answered ${a.status}`);
          if (a.status === 503) {
            assert.equal(a.code, 'service_unavailable', a.call);
            assert.equal(a.retryAfter, '5', `${a.call}: 503 without Retry-After`);
          }
        }
        // Every outage made some call impossible: the database (everything), S3 (an upload),
        // Redis (the rate limiter every /v1 request passes).
        assert.ok(
          answers.some((a) => a.status === 503),
          `no 503 during the ${name} outage: ${summary(answers)}`,
        );
        // Only answered calls cost anything: single calls that succeeded, one credit each, and
        // uploads that were accepted (one row each).
        const charged = answers.filter(
          (a) => (a.call !== 'GET /v1/batch/{id}' && a.status === 200) || a.status === 202,
        ).length;
        assert.equal(await balance(cluster), credits - charged, 'a refused call was charged');
        // The 503s and the workers' waits name the stopped dependency, never `other`/`network`.
        const grown = growth(countsBefore, await outageCounts(cluster));
        assert.ok((grown.unavailable[dependency] ?? 0) > 0, JSON.stringify(grown));
        assert.equal(grown.unavailable.other, undefined, JSON.stringify(grown));
        assert.equal(grown.workerOutages.network, undefined, JSON.stringify(grown));
        const logged = await loggedOutagesSince(cluster, marks);
        assert.ok(!logged.includes('network'), `outages logged: ${logged.join(', ')}`);
        if (workersWait) {
          assert.ok((grown.workerOutages[dependency] ?? 0) > 0, JSON.stringify(grown));
          assert.ok(logged.includes(dependency), `outages logged: ${logged.join(', ')}`);
        }
        t.diagnostic(
          `${name} outage counted: ${JSON.stringify(grown)}; logged: ${logged.join(', ')}`,
        );
        t.diagnostic(
          `${name} outage ${OUTAGE_MS / 1000} s: job done ${recoveredMs} ms after restart, ` +
            `byte-identical, ${ROWS} rows charged once; API during the outage: ${summary(answers)}`,
        );
      });
    }
  },
);
