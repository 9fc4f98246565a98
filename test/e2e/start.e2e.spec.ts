import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestDns } from '@verity/testing';

interface Started {
  child: ChildProcess;
  output: () => string;
  base: string;
}

/** Runs `verity start` as a user would, with its own VERITY_HOME, and waits for the banner. */
async function start(home: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['bin/verity.js', 'start'], {
    env: {
      ...process.env,
      VERITY_HOME: home,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && /Try:|API docs/.test(out)) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`verity start exited with ${code}:\n${out}`));
    });
  });
  return { child, output: () => out, base };
}

async function stop(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  return exited;
}

describe('`verity start`: the embedded all-in-one', () => {
  let home: string;
  let dns: Awaited<ReturnType<typeof startTestDns>>;

  before(async () => {
    const parent = await mkdtemp(join(tmpdir(), 'verity-start-'));
    await chmod(parent, 0o755); // mkdtemp is 0700; the embedded server runs as `postgres` under root
    home = join(parent, 'home');
    dns = await startTestDns();
  });
  after(async () => {
    await dns.server.stop();
    await rm(join(home, '..'), { recursive: true, force: true });
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
  });

  it('stops at boot with a message naming a bad variable', async () => {
    await assert.rejects(start(home, { PORT: 'eighty' }), /PORT/);
    await assert.rejects(start(home, { ROW_BUS: 'kafka', KAFKA_BROKERS: '' }), /KAFKA_BROKERS/);
  });
});
