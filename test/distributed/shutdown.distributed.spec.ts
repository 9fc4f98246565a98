import { once } from 'node:events';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
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
import type { Deployable } from './process-harness';

// Graceful shutdown (SIGTERM) of a scorer and of ingest in the middle of a job, with real Kafka,
// Redis (Bull), S3Proxy and PostgreSQL and every deployable its own process from dist/.

const SHUTDOWN_TIMEOUT_MS = 25_000;

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

distributedSuite('graceful shutdown, distributed (api, ingest, 2 scorers as processes)', () => {
  let cluster: Cluster;

  before(async () => {
    // Workers log at info so that the shutdown steps can be checked in their logs.
    cluster = await startCluster('shutdown', {
      env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
      workerEnv: { LOG_LEVEL: 'info' },
    });
  });
  after(() => cluster?.close());

  it('SIGTERM to a scorer and to ingest mid-job: exit 0, readiness 503, no chunk lost or duplicated, charged once', async (t) => {
    const input = phoneInput();
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
    const expected = await referenceResult(cluster, input);

    // The same file again. Once rows are being scored both scorers are frozen, so the job is
    // provably unfinished when the signal arrives (terminate() resumes the one it stops).
    const id = await submitAndFreezeMidJob(cluster, input);
    const job = () => cluster.client.get(`/v1/batch/${id}`);

    const scorerExit = await terminate(cluster.scorers[0]);
    assert.deepEqual(
      { code: scorerExit.code, signal: scorerExit.signal },
      { code: 0, signal: null },
      'the scorer exits 0 within SHUTDOWN_TIMEOUT_MS',
    );
    const scorer503 = assertDrainingReadiness('scorer', scorerExit.readiness);
    const afterScorer = (await job()).body;
    assert.equal(afterScorer.status, 'processing');

    // Ingest (splitter, assembler) mid-job; scorer-b is still frozen so the job cannot end.
    const ingestExit = await terminate(cluster.ingest);
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
    cluster.ingest = await cluster.startWorker('ingest', 'ingest-2');
    cluster.scorers[1].child.kill('SIGCONT');
    cluster.scorers[0] = await cluster.startWorker('scorer', 'scorer-a2');
    await assertSameResult(cluster, id, expected);
    await assertChargedOnceChunksExact(cluster, id);

    // Each stopped process logged its steps in order, and finished cleanly.
    for (const name of ['scorer-a', 'ingest']) {
      const messages = (await logLines(cluster.logDir, name)).map((l) => l.msg);
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
    for (const file of await readdir(cluster.logDir)) {
      const text = await readFile(join(cluster.logDir, file), 'utf8');
      assert.ok(!text.includes('Topic creation errors'), `${file} logs topic creation errors`);
    }
  });
});
