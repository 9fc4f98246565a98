import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTestDatabase, startTestDns } from '@verity/testing';
import {
  bannerAddress,
  cleanEnv,
  postgresLogOf,
  removeCluster,
  spawnVerity,
  type VerityProcess,
} from './verity-process';

interface Started {
  run: VerityProcess;
  output: () => string;
  base: string;
}

/** Runs `verity start` as a user would, with its own VERITY_HOME, and waits for the banner. */
async function start(home: string, env: Record<string, string>): Promise<Started> {
  const run = spawnVerity(process.execPath, ['bin/verity.js', 'start'], {
    cwd: process.cwd(),
    env: cleanEnv({ VERITY_HOME: home, PORT: '0', LOG_LEVEL: 'warn', ...env }),
  });
  return { run, output: () => run.output(), base: await bannerAddress(run) };
}

async function stop(started: Started): Promise<number | string> {
  started.run.child.kill('SIGTERM');
  return started.run.exited;
}

describe('`verity start`: the embedded all-in-one', () => {
  let home: string;
  let dns: Awaited<ReturnType<typeof startTestDns>>;

  before(async () => {
    home = join(await mkdtemp(join(tmpdir(), 'verity-start-')), 'home');
    dns = await startTestDns();
  });
  after(async () => {
    await dns.server.stop();
    await removeCluster(home);
    await rm(dirname(home), { recursive: true, force: true });
  });

  it('boots on embedded PostgreSQL, prints the address and a dev key once, and reuses the data', async () => {
    const first = await start(home, { DNS_SERVERS: dns.servers, LOG_LEVEL: 'info' });
    const key = /(vrt_live_[0-9A-Za-z]{24})/.exec(first.output())?.[1];
    assert.ok(key, first.output());
    const ping = await fetch(`${first.base}/v1/ping`, { headers: { 'x-api-key': key } });
    assert.equal(ping.status, 200);
    assert.equal(((await ping.json()) as { credits_remaining: number }).credits_remaining, 10_000);
    const email = await fetch(`${first.base}/v1/email/validate`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'jane@example.com' }),
    });
    assert.equal(email.status, 200);
    assert.equal(await stop(first), 0);
    // JSON access logs name route, status and latency, and never the key.
    const logLines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const access = logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request completed');
    assert.ok(
      access.some(
        (l) =>
          l.route === '/v1/email/validate' &&
          l.status === 200 &&
          typeof l.latency_ms === 'number' &&
          typeof l.reqId === 'string',
      ),
    );
    assert.ok(!logLines.some((l) => l.includes(key)), 'a log line contains the API key');

    const second = await start(home, { DNS_SERVERS: dns.servers });
    try {
      assert.doesNotMatch(second.output(), /vrt_live_/);
      const again = await fetch(`${second.base}/v1/ping`, { headers: { 'x-api-key': key } });
      assert.equal(
        ((await again.json()) as { credits_remaining: number }).credits_remaining,
        9_999,
      );
    } finally {
      assert.equal(await stop(second), 0);
    }
    // The second start found its database and created nothing: the server logged no error.
    const pgLog = await readFile(await postgresLogOf(home), 'utf8');
    assert.match(pgLog, /database system is ready to accept connections/);
    assert.doesNotMatch(pgLog, /ERROR:/, pgLog);
  });

  it('on DATABASE_URL, the banner names that server, not an embedded one', async () => {
    const db = await createTestDatabase();
    const started = await start(join(dirname(home), 'external'), {
      DATABASE_URL: db.url,
      DNS_SERVERS: dns.servers,
    });
    try {
      const { host, pathname } = new URL(db.url);
      assert.match(started.output(), new RegExp(`Database +PostgreSQL at ${host}${pathname}\\n`));
      assert.doesNotMatch(started.output(), /embedded PostgreSQL/);
    } finally {
      assert.equal(await stop(started), 0);
      await db.drop();
    }
  });

  it('stops at boot with a message naming a bad variable', async () => {
    await assert.rejects(start(home, { PORT: 'eighty' }), /PORT/);
    await assert.rejects(start(home, { ROW_BUS: 'kafka', KAFKA_BROKERS: '' }), /KAFKA_BROKERS/);
  });
});
