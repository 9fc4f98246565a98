import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamUnavailableError } from '@verity/common';
import { loadConfig } from '@verity/config';
import { maxmindFixtureDir } from '@verity/testing';
import { buildIpEngine } from './ip-engine.builder';
import { updateIpData } from './ip-data.updater';
import { bundledDataDir } from './ip-data.paths';

const FIX = maxmindFixtureDir();

/** Files the local "upstream" serves; tests change them between updates. */
const served = new Map<string, { status: number; body: string }>();

describe('IP open data: seed, status, update, hot swap', () => {
  let dir: string;
  let server: Server;
  let base: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-ip-data-'));
    server = createServer((req, res) => {
      const f = served.get(req.url ?? '');
      res.writeHead(f?.status ?? 404, { 'content-type': 'text/plain' });
      res.end(f?.body ?? 'not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  const config = (home: string, extra: Record<string, string> = {}) =>
    loadConfig({
      VERITY_HOME: home,
      IP_CITY_DB: join(FIX, 'GeoIP2-City-Test.mmdb'),
      IP_ASN_DB: join(FIX, 'GeoLite2-ASN-Test.mmdb'),
      IP_TOR_EXIT_URL: `${base}/tor`,
      IP_X4BNET_URL: `${base}/x4b`,
      IP_CLOUD_RANGES_URLS: `${base}/cloud/ip-ranges.json`,
      ...extra,
    });

  it('seeds the data directory from the bundled snapshot and reports each source', async () => {
    const home = join(dir, 'seed');
    const h = await buildIpEngine(config(home), { pollMs: 0 });
    try {
      const st = new Map(h.dataStatus().map((s) => [s.id, s]));
      const vpn4 = st.get('x4bnet-vpn-ipv4')!;
      assert.ok(vpn4.status === 'loaded' || vpn4.status === 'stale', vpn4.status);
      assert.ok((vpn4.entries ?? 0) > 1000);
      assert.equal(
        vpn4.file_mtime,
        '2026-08-22T00:00:00.000Z',
        'mtime is the snapshot date, not the copy time',
      );
      assert.equal(st.get('tor-exits')!.status, 'missing', 'the Tor list is not bundled');
      assert.equal(st.get('tor-exits')!.entries, null);
      assert.ok(st.get('x4bnet-datacenter-asn')!.entries! > 500);
      // 2.26.157.1 is in the bundled X4BNet VPN list; AS3223 (VOXILITY) is a datacenter ASN there.
      assert.equal(h.engine.lookup('2.26.157.1').vpn, true);
      const src = bundledDataDir();
      assert.ok(src !== null);
      assert.equal(
        await readFile(join(home, 'data', 'ip', 'x4bnet', 'output_vpn_ipv6.txt'), 'utf8'),
        await readFile(join(src, 'x4bnet', 'output_vpn_ipv6.txt'), 'utf8'),
      );
    } finally {
      await h.close();
    }
  });

  it('downloads, validates, writes atomically and swaps lists into a running engine', async () => {
    const home = join(dir, 'update');
    const cfg = config(home, { IP_DATA_POLL_MS: '20' });
    const h = await buildIpEngine(cfg, { bundleDir: null });
    try {
      assert.equal(h.engine.lookup('198.96.155.3').tor, false);
      served.set('/tor', { status: 200, body: '198.96.155.3\n185.220.101.1\n' });
      served.set('/x4b/output/vpn/ipv4.txt', { status: 200, body: '45.0.0.0/16\n' });
      served.set('/x4b/output/vpn/ipv6.txt', { status: 200, body: '2a0d:5600::/32\n' });
      served.set('/x4b/output/datacenter/ipv4.txt', {
        status: 200,
        body: '<html>rate limited</html>\n',
      });
      served.set('/x4b/input/datacenter/ASN.txt', { status: 200, body: 'AS15169 # Google\n' });
      served.set('/cloud/ip-ranges.json', {
        status: 200,
        body: JSON.stringify({
          prefixes: [{ ip_prefix: '3.5.140.0/22' }],
          ipv6_prefixes: [{ ipv6_prefix: '2600:1f00::/24' }],
        }),
      });
      const results = new Map((await updateIpData(cfg)).map((r) => [r.id, r]));
      assert.equal(results.get('tor-exits')?.status, 'updated');
      assert.equal(results.get('tor-exits')?.entries, 2);
      assert.equal(
        results.get('x4bnet-datacenter-ipv4')?.status,
        'failed',
        'an HTML page is rejected',
      );
      assert.equal(results.get('x4bnet-datacenter-ipv6')?.status, 'failed', '404');
      assert.equal(results.get('cloud-127.0.0.1-ip-ranges')?.entries, 2);

      // The poller swaps the new files in without a restart.
      const deadline = Date.now() + 5000;
      const swapped = () =>
        h.engine.lookup('198.96.155.3').tor &&
        h.engine.lookup('3.5.141.1').datacenter &&
        h.engine.lookup('45.0.1.1').vpn;
      while (!swapped() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const tor = h.engine.lookup('198.96.155.3');
      assert.equal(tor.tor, true);
      assert.equal(tor.abuse_score, 70);
      assert.equal(h.engine.lookup('45.0.1.1').vpn, true);
      assert.equal(h.engine.lookup('2a0d:5600::1').vpn, true);
      assert.equal(h.engine.lookup('3.5.141.1').datacenter, true);
      assert.equal(h.engine.lookup('2600:1f00::1').datacenter, true);
      // 1.0.0.1 is AS15169 in the ASN test database, now a datacenter ASN.
      assert.equal(h.engine.lookup('1.0.0.1').datacenter, true);
      const st = new Map(h.dataStatus().map((s) => [s.id, s]));
      assert.equal(st.get('tor-exits')?.status, 'loaded');
      assert.equal(st.get('tor-exits')?.entries, 2);
      assert.equal(st.get('x4bnet-datacenter-ipv4')?.status, 'missing');

      // A failed refresh keeps the previous good file.
      served.set('/tor', { status: 500, body: '' });
      const again = await updateIpData(cfg, { only: ['tor-exits'] });
      assert.equal(again[0]?.status, 'failed');
      assert.equal(
        await readFile(join(home, 'data', 'ip', 'tor', 'torbulkexitlist.txt'), 'utf8'),
        '198.96.155.3\n185.220.101.1\n',
      );
    } finally {
      await h.close();
    }
  });

  it('reload() picks up a changed list immediately; a corrupt file keeps the last good data', async () => {
    const home = join(dir, 'reload');
    const dataDir = join(home, 'data', 'ip');
    await mkdir(join(dataDir, 'tor'), { recursive: true });
    const torFile = join(dataDir, 'tor', 'torbulkexitlist.txt');
    await writeFile(torFile, '203.0.114.9\n');
    const h = await buildIpEngine(config(home), { pollMs: 0, bundleDir: null });
    try {
      assert.equal(h.engine.lookup('203.0.114.9').tor, true);
      await writeFile(torFile, '203.0.114.10\n');
      await h.reload();
      assert.equal(h.engine.lookup('203.0.114.9').tor, false);
      assert.equal(h.engine.lookup('203.0.114.10').tor, true);
      await writeFile(torFile, 'garbage\nmore garbage\n');
      await h.reload();
      assert.equal(h.engine.lookup('203.0.114.10').tor, true);
      const st = h.dataStatus().find((s) => s.id === 'tor-exits')!;
      assert.equal(st.status, 'loaded');
      assert.match(st.error ?? '', /no entries/);
    } finally {
      await h.close();
    }
  });

  it('the change poll reloads a database only when a file changed (mtimes with a fraction of a millisecond)', async () => {
    const home = join(dir, 'poll');
    const cityDir = join(home, 'city');
    await mkdir(cityDir, { recursive: true });
    // Two files in the folder: the poll must compare the newest of all, as load() does.
    await copyFile(join(FIX, 'GeoIP2-City-Test.mmdb'), join(cityDir, 'a.mmdb'));
    await copyFile(join(FIX, 'GeoIP2-City-Test.mmdb'), join(cityDir, 'b.mmdb'));
    const asnCsv = join(home, 'asn.csv');
    await writeFile(asnCsv, '1.0.0.0,1.0.0.255,111,First Org\n');
    // Sub-millisecond parts, as real file systems give (a Date keeps whole milliseconds).
    await utimes(join(cityDir, 'a.mmdb'), 1_790_000_000.123456, 1_790_000_000.123456);
    await utimes(join(cityDir, 'b.mmdb'), 1_790_000_001.765432, 1_790_000_001.765432);
    await utimes(asnCsv, 1_790_000_002.555555, 1_790_000_002.555555);
    const h = await buildIpEngine(config(home, { IP_CITY_DB: cityDir, IP_ASN_DB: asnCsv }), {
      pollMs: 0,
      bundleDir: null,
    });
    const loadedAt = () => new Map(h.dataStatus().map((s) => [s.id, s.loaded_at] as const));
    try {
      const first = loadedAt();
      assert.ok(first.get('city-db') && first.get('asn-db'));
      await new Promise((r) => setTimeout(r, 5));
      await h.refreshChanged();
      assert.deepEqual(loadedAt(), first, 'nothing changed, nothing reloaded');

      await writeFile(asnCsv, '1.0.0.0,1.0.0.255,222,Other Org\n');
      await utimes(asnCsv, 1_790_000_100.25, 1_790_000_100.25);
      await h.refreshChanged();
      const second = loadedAt();
      assert.notEqual(second.get('asn-db'), first.get('asn-db'), 'the changed CSV is reloaded');
      assert.equal(second.get('city-db'), first.get('city-db'), 'the unchanged database is not');
      assert.equal(h.engine.lookup('1.0.0.1').asn, 222);
    } finally {
      await h.close();
    }
  });

  it('a missing or corrupt database makes lookups 503 and shows in dataStatus; bogons still answer', async () => {
    const home = join(dir, 'missing');
    const h = await buildIpEngine(
      config(home, {
        IP_CITY_DB: join(dir, 'nope.mmdb'),
        IP_ASN_DB: join(FIX, 'GeoIP2-City-Test-Invalid-Node-Count.mmdb'),
      }),
      { pollMs: 0, bundleDir: null },
    );
    try {
      assert.throws(
        () => h.engine.lookup('81.2.69.160'),
        (e: unknown) => e instanceof UpstreamUnavailableError && e.status === 503,
      );
      assert.equal(h.engine.lookup('192.168.1.1').country, null);
      const st = new Map(h.dataStatus().map((s) => [s.id, s]));
      assert.equal(st.get('city-db')?.status, 'missing');
      assert.equal(st.get('city-db')?.required, true);
      // The database appears later: reload() brings it in without a restart.
      await copyFile(join(FIX, 'GeoIP2-City-Test.mmdb'), join(dir, 'nope.mmdb'));
      await h.reload();
      assert.notEqual(h.dataStatus().find((s) => s.id === 'city-db')?.status, 'missing');
      assert.ok((await stat(join(dir, 'nope.mmdb'))).size > 0);
      // The ASN file opens but its tree is corrupt: the lookup is a 503 and the status says why.
      assert.throws(
        () => h.engine.lookup('81.2.69.160'),
        (e: unknown) => e instanceof UpstreamUnavailableError,
      );
      assert.match(h.dataStatus().find((s) => s.id === 'asn-db')?.error ?? '', /lookup failed/);
    } finally {
      await h.close();
    }
  });
});
