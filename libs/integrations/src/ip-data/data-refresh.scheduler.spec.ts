import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@verity/config';
import { maxmindFixtureDir } from '@verity/testing';
import { DataRefreshScheduler, warnStale, type DataRefreshLog } from './data-refresh.scheduler';
import { buildIpEngine } from './ip-engine.builder';

const FIX = maxmindFixtureDir();

/** Collects what the scheduler logs. */
type Entry = Record<string, unknown>;
function recorder(): DataRefreshLog & { warnings: Entry[]; infos: Entry[] } {
  const warnings: Entry[] = [];
  const infos: Entry[] = [];
  return {
    warnings,
    infos,
    info: (obj) => infos.push(obj as Entry),
    warn: (obj) => warnings.push(obj as Entry),
  };
}

/** The lists named by the stale/missing warnings. */
/** The late lists the warnings name, as { source, status }. */
function lateSources(log: { warnings: Entry[] }): Entry[] {
  return log.warnings.flatMap((w) =>
    (['missing', 'stale'] as const).flatMap((status) =>
      Array.isArray(w[status]) ? (w[status] as string[]).map((source) => ({ source, status })) : [],
    ),
  );
}

describe('DATA_REFRESH_INTERVAL', () => {
  it('is on by default, takes off or a duration of at least a minute', () => {
    assert.equal(loadConfig({}).DATA_REFRESH_INTERVAL, 'on');
    assert.equal(loadConfig({ DATA_REFRESH_INTERVAL: 'ON' }).DATA_REFRESH_INTERVAL, 'on');
    assert.equal(loadConfig({ DATA_REFRESH_INTERVAL: 'off' }).DATA_REFRESH_INTERVAL, 'off');
    assert.equal(loadConfig({ DATA_REFRESH_INTERVAL: '0' }).DATA_REFRESH_INTERVAL, 'off');
    assert.equal(loadConfig({ DATA_REFRESH_INTERVAL: '6h' }).DATA_REFRESH_INTERVAL, 21_600_000);
    assert.equal(loadConfig({ DATA_REFRESH_INTERVAL: '1d' }).DATA_REFRESH_INTERVAL, 86_400_000);
    for (const bad of ['10s', 'daily', '-1h']) {
      assert.throws(
        () => loadConfig({ DATA_REFRESH_INTERVAL: bad }),
        (e: unknown) => e instanceof ConfigError && /DATA_REFRESH_INTERVAL/.test(e.message),
        bad,
      );
    }
  });
});

describe('DataRefreshScheduler against a local upstream', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const served = new Map<string, string>();
  let requests = 0;
  const paths: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-data-refresh-'));
    server = createServer((req, res) => {
      requests++;
      paths.push(req.url ?? '');
      const body = served.get(req.url ?? '');
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' });
      res.end(body ?? 'not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  const config = (home: string) =>
    loadConfig({
      VERITY_HOME: home,
      IP_CITY_DB: join(FIX, 'GeoIP2-City-Test.mmdb'),
      IP_ASN_DB: join(FIX, 'GeoLite2-ASN-Test.mmdb'),
      IP_TOR_EXIT_URL: `${base}/tor`,
      IP_X4BNET_URL: `${base}/x4b`,
      IP_CLOUD_RANGES_URLS: `${base}/cloud/ip-ranges.json`,
    });

  it('refreshes at once when lists are missing, swaps them in, and refreshes again on demand', async () => {
    served.set('/tor', '198.96.155.3\n');
    served.set('/x4b/output/vpn/ipv4.txt', '45.0.0.0/16\n');
    const cfg = config(join(dir, 'run'));
    const ip = await buildIpEngine(cfg, { pollMs: 0, bundleDir: null });
    const log = recorder();
    const outcomes: string[] = [];
    const scheduler = new DataRefreshScheduler(cfg, ip, {
      log,
      onResult: (kind, outcome) => outcomes.push(`${kind}:${outcome}`),
    });
    try {
      assert.equal(ip.engine.lookup('198.96.155.3').tor, false);
      scheduler.start();
      const deadline = Date.now() + 30_000;
      while (!ip.engine.lookup('198.96.155.3').tor && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(ip.engine.lookup('198.96.155.3').tor, true, 'the first run is immediate');
      assert.equal(ip.engine.lookup('45.0.1.1').vpn, true);
      const tor = ip.dataStatus().find((s) => s.id === 'tor-exits')!;
      assert.equal(tor.status, 'loaded');
      assert.equal(tor.max_age_seconds, 86_400, 'Tor is expected daily');
      // Sources the upstream does not serve failed and are still missing: one warning line
      // names both, and the metric hook counts every download.
      await scheduler.close();
      assert.equal(log.warnings.length, 1, JSON.stringify(log.warnings));
      const failed = log.warnings[0].failed as { source: string }[];
      assert.ok(failed.some((f) => f.source === 'x4bnet-datacenter-asn'));
      assert.ok(lateSources(log).some((w) => w.status === 'missing'));
      assert.ok(outcomes.includes('tor:updated') && outcomes.includes('vpn:updated'));
      assert.ok(outcomes.includes('datacenter:failed'), outcomes.join());

      served.set('/tor', '185.220.101.1\n');
      const results = await scheduler.runOnce();
      assert.equal(results.find((r) => r.id === 'tor-exits')?.status, 'updated');
      assert.equal(ip.engine.lookup('185.220.101.1').tor, true);
      assert.equal(ip.engine.lookup('198.96.155.3').tor, false);
    } finally {
      await scheduler.close();
      await ip.close();
    }
  });

  it('refreshes each list on its own cadence: an hour-old Tor list, not a day-fresh VPN list', async () => {
    served.set('/tor', '198.96.155.3\n');
    const cfg = config(join(dir, 'cadence'));
    const ip = await buildIpEngine(cfg, { pollMs: 0, bundleDir: null });
    const aged = {
      ...ip,
      dataStatus: () =>
        ip.dataStatus().map((s) => ({ ...s, status: 'loaded' as const, age_seconds: 7_200 })),
    };
    const scheduler = new DataRefreshScheduler(cfg, aged, { log: recorder() });
    try {
      paths.length = 0;
      scheduler.start();
      const deadline = Date.now() + 30_000;
      while (!paths.includes('/tor') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await scheduler.close();
      assert.deepEqual(paths, ['/tor'], 'only the list past its cadence (Tor: hourly)');
    } finally {
      await scheduler.close();
      await ip.close();
    }
  });

  it('waits one interval when every list is fresh, and close() stops it', async () => {
    const cfg = config(join(dir, 'fresh'));
    const ip = await buildIpEngine(cfg, { pollMs: 0, bundleDir: null });
    const fresh = {
      ...ip,
      dataStatus: () =>
        ip.dataStatus().map((s) => ({ ...s, status: 'loaded' as const, age_seconds: 0 })),
    };
    const scheduler = new DataRefreshScheduler(cfg, fresh, { intervalMs: 60_000, log: recorder() });
    try {
      const before = requests;
      scheduler.start();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(requests, before, 'nothing downloaded before the interval');
    } finally {
      await scheduler.close();
      await ip.close();
    }
  });

  it('reports a Tor list older than a day as stale, with a warning', async () => {
    const home = join(dir, 'stale');
    served.set('/tor', '198.96.155.3\n');
    const cfg = config(home);
    const ip = await buildIpEngine(cfg, { pollMs: 0, bundleDir: null });
    try {
      await new DataRefreshScheduler(cfg, ip, { intervalMs: 60_000, log: recorder() }).runOnce();
      const file = join(home, 'data', 'ip', 'tor', 'torbulkexitlist.txt');
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      await utimes(file, twoDaysAgo, twoDaysAgo);
      await ip.refreshChanged();
      const tor = ip.dataStatus().find((s) => s.id === 'tor-exits')!;
      assert.equal(tor.status, 'stale');
      assert.ok(tor.age_seconds! >= 2 * 86_400 - 5);
      // A week-old VPN list is still within IP_DATA_MAX_AGE_HOURS (7 days by default).
      const vpn = ip.dataStatus().find((s) => s.id === 'x4bnet-vpn-ipv4')!;
      assert.equal(vpn.max_age_seconds, 7 * 86_400);
      const log = recorder();
      warnStale(ip.dataStatus(), log);
      assert.equal(log.warnings.length, 1, 'one warning names every late list');
      assert.ok(lateSources(log).some((w) => w.source === 'tor-exits' && w.status === 'stale'));
      assert.equal(ip.engine.lookup('198.96.155.3').tor, true, 'a stale list is still used');
    } finally {
      await ip.close();
    }
  });
});
