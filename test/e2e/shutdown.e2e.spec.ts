import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoopbackDnsServer } from '@verity/testing';
import { bannerAddress, cleanEnv, removeCluster, spawnVerity } from './verity-process';

interface Answer {
  status: number;
  body: string;
}

/** One request on `agent`; resolves with the status and body once the answer has arrived. */
function send(
  base: string,
  agent: Agent,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, agent, ...options },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('`verity start` on Ctrl-C with connections open (a browser tab: spare and kept-alive ones)', () => {
  let home: string;
  let dns: LoopbackDnsServer;
  let dnsServers: string;

  before(async () => {
    home = join(await mkdtemp(join(tmpdir(), 'verity-shutdown-')), 'home');
    dns = new LoopbackDnsServer({
      zone: {
        'example.com': { MX: [{ exchange: 'mx.example.com', preference: 10 }] },
        'mx.example.com': { A: ['127.0.0.1'] },
      },
    });
    const address = await dns.start();
    dnsServers = `${address.host}:${address.port}`;
  });
  after(async () => {
    await dns.stop();
    await removeCluster(home);
    await rm(dirname(home), { recursive: true, force: true });
  });

  it('closes a silent and an idle connection at once, answers the request in flight, and exits 0', async () => {
    const run = spawnVerity(process.execPath, ['bin/verity.js', 'start'], {
      cwd: process.cwd(),
      env: cleanEnv({
        VERITY_HOME: home,
        PORT: '0',
        LOG_LEVEL: 'info',
        DNS_SERVERS: dnsServers,
        // The held answer must not time out: the request stays in flight until released.
        DNS_TIMEOUT_MS: '120000',
      }),
    });
    const base = await bannerAddress(run);
    const key = /(vrt_live_[0-9A-Za-z]{24})/.exec(run.output())![1];
    const { port } = new URL(base);

    // (a) a connection that never sends a byte, as a browser opens ahead of need.
    const silent = connect(Number(port), '127.0.0.1');
    const silentClosed = closed(silent);
    await new Promise<void>((resolve) => silent.once('connect', resolve));
    // (b) a kept-alive connection, idle after one answered request.
    const keepAlive = new Agent({ keepAlive: true });
    assert.equal((await send(base, keepAlive, '/healthz')).status, 200);
    const [idle] = Object.values(keepAlive.freeSockets).flat();
    assert.ok(idle, 'the kept-alive connection is idle');
    const idleClosed = closed(idle);
    // (c) a request in flight: its MX lookup is held by the resolver.
    dns.hold();
    const asked = dns.queries.length;
    const busy = new Agent({ keepAlive: true });
    const inFlight = send(base, busy, '/v1/email/validate', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'jane@example.com' }),
    });
    let answered = false;
    void inFlight.then(
      () => (answered = true),
      () => (answered = true),
    );
    await until(() => dns.queries.length > asked, 'the lookup of the request in flight');

    run.child.kill('SIGINT');
    // Both connections are closed by the server while the request is still waiting on DNS.
    await Promise.all([silentClosed, idleClosed]);
    assert.equal(answered, false, 'the request in flight was answered before its lookup');
    dns.release();
    const answer = await inFlight;
    assert.equal(answer.status, 200, answer.body);
    const result = JSON.parse(answer.body) as { input: string; mx_found: boolean };
    assert.deepEqual([result.input, result.mx_found], ['jane@example.com', true]);

    assert.equal(await run.exited, 0, run.output());
    assert.doesNotMatch(run.output(), /shutdown took too long/);
    const messages = run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.ok(messages.includes('shutdown complete'), run.output());
    keepAlive.destroy();
    busy.destroy();
  });
});
