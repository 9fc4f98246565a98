// The open-data refresh is on by default: `verity start` with no DATA_REFRESH_INTERVAL fetches
// the Tor exit list in the background right after start, and /v1/ip/intel flags the exits.
// Every list URL points at a loopback HTTP server: nothing leaves 127.0.0.0/8.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpListEvidence } from '@verity/contracts';
import { createTestDatabase, startTestDns, type TestDatabase } from '@verity/testing';
import { bannerAddress, cleanEnv, spawnVerity, type VerityProcess } from './verity-process';

const EXIT = '185.220.101.7';

describe('open-data refresh with no setting', () => {
  let upstream: Server;
  let base: string;
  let run: VerityProcess;
  let api: string;
  let key: string;
  let home: string;
  let db: TestDatabase;
  let dns: Awaited<ReturnType<typeof startTestDns>>;
  const asked: string[] = [];

  before(async () => {
    upstream = createServer((req, res) => {
      asked.push(req.url ?? '');
      const tor = req.url === '/tor';
      res.writeHead(tor ? 200 : 404, { 'content-type': 'text/plain' });
      res.end(tor ? `${EXIT}\n` : 'not found');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    home = await mkdtemp(join(tmpdir(), 'verity-refresh-'));
    db = await createTestDatabase();
    dns = await startTestDns();
    const env = cleanEnv({
      VERITY_HOME: home,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      DNS_SERVERS: dns.servers,
      IP_TOR_EXIT_URL: `${base}/tor`,
      IP_X4BNET_URL: `${base}/x4b`,
      IP_CLOUD_RANGES_URLS: `${base}/cloud/ip-ranges.json`,
    });
    delete env.DATA_REFRESH_INTERVAL;
    run = spawnVerity(process.execPath, ['bin/verity.js', 'start'], { cwd: process.cwd(), env });
    api = await bannerAddress(run);
    key = /(vrt_live_[0-9A-Za-z]{24})/.exec(run.output())?.[1] ?? '';
  });
  after(async () => {
    run.child.kill('SIGTERM');
    await run.exited;
    await new Promise<void>((r) => upstream.close(() => r()));
    await dns.server.stop();
    await db.drop();
    await rm(home, { recursive: true, force: true });
  });

  const intel = async (ip: string) => {
    const res = await fetch(`${api}/v1/ip/intel?explain=true`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ ip }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { tor: boolean; lists: IpListEvidence[] };
  };

  it('flags the exits of the loopback Tor list within a minute, and says which list did', async () => {
    assert.ok(key.length > 0, run.output());
    const deadline = Date.now() + 60_000;
    let answer = await intel(EXIT);
    while (!answer.tor && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      answer = await intel(EXIT);
    }
    assert.equal(answer.tor, true, JSON.stringify(answer.lists));
    const tor = answer.lists.find((l) => l.source === 'tor-exits');
    assert.equal(tor?.kind, 'tor');
    assert.equal(tor?.status, 'loaded');
    assert.equal(tor?.matched, true);
    assert.equal(typeof tor?.age_seconds, 'number');
    assert.ok(asked.includes('/tor'));
  });

  it('keeps serving when other lists fail: one warning line, a metric, no error', async () => {
    const other = await intel('8.8.8.8');
    assert.equal(other.tor, false);
    const cloud = other.lists.find((l) => l.source.startsWith('cloud-'));
    assert.equal(cloud?.status, 'missing', 'a missing list says so instead of looking clean');
    assert.equal(cloud?.matched, false);
    const metrics = await (await fetch(`${api}/metrics`)).text();
    assert.match(metrics, /verity_data_refresh_total\{kind="tor",outcome="updated"\} [1-9]/);
    assert.match(metrics, /verity_data_refresh_total\{kind="datacenter",outcome="failed"\} [1-9]/);
    const lines = run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.ok(!lines.some((l) => l.level >= 50), 'no error lines');
    const failures = lines.filter((l) => /downloads? failed/.test(l.msg));
    assert.equal(failures.length, 1, JSON.stringify(failures));
  });
});
