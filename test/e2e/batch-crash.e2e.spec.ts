import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, LoopbackDnsServer, type TestDatabase } from '@verity/testing';
import { bannerAddress, cleanEnv, spawnVerity, type VerityProcess } from './verity-process';

/**
 * `verity start` (the embedded default: in-process row bus and queue, local blobs) stopped
 * with Ctrl-C or killed with SIGKILL while a job waits, or is being scored, then started
 * again on the same data: the job finishes with the bytes of an undisturbed run and one debit
 * (docs/batch.md, "Recovery"). A resolver that never answers makes each row wait
 * DNS_TIMEOUT_MS, so scoring lasts long enough to be interrupted at a chosen point.
 */
const ROWS = 300;
const FILE = Array.from({ length: ROWS }, (_, i) => `user${i}@host${i}.example`).join('\n') + '\n';

interface Job {
  status: string;
  processed_rows: number;
  result_url: string | null;
}

describe('a stopped or killed `verity start` finishes every accepted job after a restart', () => {
  let database: TestDatabase;
  let home: string;
  let silent: LoopbackDnsServer;
  let env: NodeJS.ProcessEnv;
  let key: string;
  let expected: string;
  const figures: string[] = [];

  async function start(): Promise<{ run: VerityProcess; base: string }> {
    const run = spawnVerity(process.execPath, ['bin/verity.js', 'start'], {
      cwd: process.cwd(),
      env,
    });
    return { run, base: await bannerAddress(run) };
  }

  async function stop(run: VerityProcess, signal: NodeJS.Signals): Promise<void> {
    process.kill(-run.child.pid!, signal);
    await run.exited;
  }

  async function get(base: string, jobId: string): Promise<Job> {
    const res = await fetch(`${base}/v1/batch/${jobId}`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 200);
    return (await res.json()) as Job;
  }

  async function submit(base: string): Promise<string> {
    const form = new FormData();
    form.append('type', 'email');
    form.append('file', new Blob([FILE]), 'leads.csv');
    const res = await fetch(`${base}/v1/batch`, {
      method: 'POST',
      body: form,
      headers: { 'x-api-key': key },
    });
    const body = (await res.json()) as { id: string };
    assert.equal(res.status, 202, JSON.stringify(body));
    return body.id;
  }

  async function until(
    base: string,
    jobId: string,
    done: (job: Job) => boolean,
    timeoutMs = 120_000,
  ): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await get(base, jobId);
      if (done(job)) return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} stuck: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function fromDatabase<T>(sql: string, params: unknown[]): Promise<T[]> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async function rowsScored(base: string): Promise<number> {
    const text = await (await fetch(`${base}/metrics`)).text();
    const m = /verity_batch_rows_processed_total\{type="email"\} (\d+)/.exec(text);
    return m ? Number(m[1]) : 0;
  }

  before(async () => {
    database = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'verity-crash-'));
    silent = new LoopbackDnsServer({ zone: {}, silent: true });
    const dns = await silent.start();
    env = cleanEnv({
      VERITY_HOME: home,
      DATABASE_URL: database.url,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DNS_SERVERS: `${dns.host}:${dns.port}`,
      DNS_TIMEOUT_MS: '40',
      BATCH_CHUNK_ROWS: '20',
      BATCH_EMAIL_CONCURRENCY: '4',
    });
    // The undisturbed run gives the bytes every interrupted job must end with.
    const { run, base } = await start();
    key = /(vrt_live_[0-9A-Za-z]{24})/.exec(run.output())![1];
    const jobId = await submit(base);
    const job = await until(base, jobId, (j) => j.status !== 'processing' && j.status !== 'queued');
    assert.equal(job.status, 'done');
    expected = await (await fetch(job.result_url!)).text();
    await stop(run, 'SIGTERM');
  });

  after(async () => {
    await silent.stop();
    await database.drop();
    await rm(home, { recursive: true, force: true });
    console.log(`# rows scored again after a restart:\n# ${figures.join('\n# ')}`);
  });

  const points: { name: string; signal: NodeJS.Signals; when: (job: Job) => boolean }[] = [
    { name: 'Ctrl-C mid-scoring', signal: 'SIGINT', when: (j) => j.processed_rows >= ROWS / 3 },
    {
      name: 'SIGKILL right after acceptance (queued or splitting)',
      signal: 'SIGKILL',
      when: () => true,
    },
    {
      name: 'SIGKILL early in scoring',
      signal: 'SIGKILL',
      when: (j) => j.processed_rows >= ROWS / 5,
    },
    {
      name: 'SIGKILL late in scoring',
      signal: 'SIGKILL',
      when: (j) => j.processed_rows >= (ROWS * 2) / 3,
    },
    {
      name: 'SIGKILL with one chunk left',
      signal: 'SIGKILL',
      when: (j) => j.processed_rows >= ROWS - 20,
    },
  ];

  for (const point of points) {
    it(`${point.name}: done after a restart, same bytes, one debit`, async () => {
      const first = await start();
      const jobId = await submit(first.base);
      const seen = await until(first.base, jobId, point.when);
      await stop(first.run, point.signal);
      const [{ processed_rows: recorded }] = await fromDatabase<{ processed_rows: number }>(
        'SELECT processed_rows FROM batch_jobs WHERE id = $1',
        [jobId],
      );

      const second = await start();
      const job = await until(
        second.base,
        jobId,
        (j) => j.status === 'done' || j.status === 'failed',
      );
      assert.equal(job.status, 'done', JSON.stringify(job));
      assert.equal(await (await fetch(job.result_url!)).text(), expected);
      const ledger = await fromDatabase<{ reason: string; delta: string }>(
        'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
        [jobId],
      );
      assert.deepEqual(
        ledger.map((l) => `${l.reason} ${l.delta}`),
        [`batch_row -${ROWS}`],
      );
      const scored = await rowsScored(second.base);
      figures.push(
        `${point.name}: stopped at ${seen.processed_rows} (${seen.status}), ${recorded} recorded; ` +
          `the restart scored ${scored} rows, ${scored - (ROWS - Number(recorded))} of them again`,
      );
      await stop(second.run, 'SIGTERM');
    });
  }
});
