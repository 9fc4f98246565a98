import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@verity/config';
import {
  bigIntToIpv6,
  intToIpv4,
  isBogon,
  parseCidr,
  parseIp,
  type IpRange,
} from '@verity/validation';
import type { IpFields } from '@verity/contracts';
import { maxmindFixtureDir } from '@verity/testing';
import { buildIpEngine, type IpEngineHandle } from './ip-engine.builder';

// MaxMind's test databases and their source JSON (github.com/maxmind/MaxMind-DB, Apache-2.0 OR MIT).
const FIX = maxmindFixtureDir();
const db = (name: string) => join(FIX, `${name}.mmdb`);

type Rec = Record<string, unknown>;
interface Entry {
  range: IpRange;
  rec: Rec;
}

/** Source JSON is a list of { "<network>": record }; IPv4 data is written as ::a.b.c.d/(96+n). */
function loadEntries(name: string): Entry[] {
  const raw = JSON.parse(readFileSync(join(FIX, 'source-data', `${name}.json`), 'utf8')) as Record<
    string,
    Rec
  >[];
  return raw.flatMap((o) =>
    Object.entries(o).map(([net, rec]) => {
      let cidr = net;
      const m = /^::(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(net);
      if (m) cidr = `${m[1]}/${Number(m[2]) - 96}`;
      const range = parseCidr(cidr);
      assert.ok(range, net);
      return { range, rec };
    }),
  );
}

const first = (r: IpRange) => (r.version === 4 ? intToIpv4(r.start) : bigIntToIpv6(r.start));
const last = (r: IpRange) => (r.version === 4 ? intToIpv4(r.end) : bigIntToIpv6(r.end));
const contains = (r: IpRange, ip: string) => {
  const p = parseIp(ip)!;
  if (p.version === 4) return r.version === 4 && p.v4 >= r.start && p.v4 <= r.end;
  return r.version === 6 && p.v6 >= r.start && p.v6 <= r.end;
};

/**
 * What the MMDB must answer: MaxMind's writer inserts the networks in file order and a later
 * insert replaces what it covers, so the last listed network holding the address wins (in
 * the IP-Risk data 2001:480::/32 comes after, and so overrides, its own /64s).
 */
function expectedRecord(entries: Entry[], ip: string): Rec {
  let best: Entry | null = null;
  for (const e of entries) if (contains(e.range, ip)) best = e;
  assert.ok(best, ip);
  return best.rec;
}

const o = (v: unknown): Rec => (typeof v === 'object' && v !== null ? (v as Rec) : {});
const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Checks first and last address of every network; returns how many addresses were checked. */
function checkAll(
  handle: IpEngineHandle,
  file: string,
  expect: (rec: Rec, got: IpFields) => void,
): number {
  const entries = loadEntries(file);
  let checked = 0;
  let bogons = 0;
  for (const e of entries) {
    for (const ip of new Set([first(e.range), last(e.range)])) {
      const got = handle.engine.lookup(ip);
      if (isBogon(parseIp(ip)!)) {
        // Policy beats data: special-purpose addresses never carry location or flags.
        assert.equal(got.country, null, ip);
        assert.equal(got.abuse_score, 0, ip);
        bogons++;
      } else {
        const rec = expectedRecord(entries, ip);
        try {
          expect(rec, got);
        } catch (err) {
          assert.fail(`${file} ${ip}: ${(err as Error).message}`);
        }
      }
      checked++;
    }
  }
  console.log(
    `${file}: ${checked}/${checked} addresses from ${entries.length} networks as documented (${bogons} special-purpose, answered by policy)`,
  );
  return checked;
}

const geoExpect = (rec: Rec, got: IpFields) => {
  assert.equal(got.country, s(o(rec.country).iso_code) ?? s(o(rec.registered_country).iso_code));
  assert.equal(got.city, s(o(o(rec.city).names).en));
};
const asnExpect = (rec: Rec, got: IpFields) => {
  assert.equal(
    got.asn,
    typeof rec.autonomous_system_number === 'number' ? rec.autonomous_system_number : null,
  );
  assert.equal(got.asn_org, s(rec.autonomous_system_organization));
};
const anonExpect = (rec: Rec, got: IpFields) => {
  assert.equal(got.vpn, rec.is_anonymous_vpn === true, 'vpn');
  assert.equal(
    got.proxy,
    rec.is_public_proxy === true || rec.is_residential_proxy === true,
    'proxy',
  );
  assert.equal(got.tor, rec.is_tor_exit_node === true, 'tor');
  assert.equal(got.datacenter, rec.is_hosting_provider === true, 'datacenter');
  if (typeof rec.ip_risk === 'number')
    assert.ok(got.abuse_score >= Math.round(rec.ip_risk), 'abuse_score >= ip_risk');
  const any = got.vpn || got.proxy || got.tor || got.datacenter || typeof rec.ip_risk === 'number';
  assert.equal(got.abuse_score > 0, any, 'abuse_score > 0 iff a signal');
};

describe('MaxMind test databases', () => {
  let dir: string;
  const handles: IpEngineHandle[] = [];
  const open = async (city: string, asn: string, anon: string) => {
    const config = loadConfig({
      VERITY_HOME: dir,
      IP_CITY_DB: db(city),
      IP_ASN_DB: db(asn),
      IP_ANONYMOUS_DB: db(anon),
      IP_DATA_DIR: join(dir, 'empty'),
      IP_CLOUD_RANGES_URLS: 'http://127.0.0.1:9/none.json',
    });
    const h = await buildIpEngine(config, { pollMs: 0, bundleDir: null });
    handles.push(h);
    return h;
  };
  let a: IpEngineHandle;
  let b: IpEngineHandle;
  let c: IpEngineHandle;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-ip-mm-'));
    a = await open('GeoIP2-City-Test', 'GeoLite2-ASN-Test', 'GeoIP2-Anonymous-IP-Test');
    b = await open('GeoLite2-City-Test', 'GeoIP2-ISP-Test', 'GeoIP-Anonymous-Plus-Test');
    c = await open('GeoIP2-City-Test', 'GeoLite2-ASN-Test', 'GeoIP2-IP-Risk-Test');
  });
  after(async () => {
    for (const h of handles) await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GeoIP2-City-Test: country and city of every documented network', () => {
    assert.ok(checkAll(a, 'GeoIP2-City-Test', geoExpect) > 100);
  });
  it('GeoLite2-City-Test: country and city of every documented network', () => {
    assert.ok(checkAll(b, 'GeoLite2-City-Test', geoExpect) > 100);
  });
  it('GeoLite2-ASN-Test: ASN and org of every documented network', () => {
    assert.ok(checkAll(a, 'GeoLite2-ASN-Test', asnExpect) > 100);
  });
  it('GeoIP2-ISP-Test: ASN and org of every documented network', () => {
    assert.ok(checkAll(b, 'GeoIP2-ISP-Test', asnExpect) > 100);
  });
  it('GeoIP2-Anonymous-IP-Test: vpn/proxy/tor/datacenter of every documented network', () => {
    assert.ok(checkAll(a, 'GeoIP2-Anonymous-IP-Test', anonExpect) >= 12);
  });
  it('GeoIP-Anonymous-Plus-Test: flags of every documented network', () => {
    assert.ok(checkAll(b, 'GeoIP-Anonymous-Plus-Test', anonExpect) >= 10);
  });
  it('GeoIP2-IP-Risk-Test: flags and ip_risk of every documented network', () => {
    assert.ok(checkAll(c, 'GeoIP2-IP-Risk-Test', anonExpect) >= 15);
  });

  it('reports every source in dataStatus', () => {
    const st = a.dataStatus();
    const byId = new Map(st.map((x) => [x.id, x]));
    assert.equal(
      byId.get('city-db')?.status === 'loaded' || byId.get('city-db')?.status === 'stale',
      true,
    );
    assert.ok((byId.get('city-db')?.entries ?? 0) > 0);
    assert.equal(byId.get('anonymous-db')?.required, false);
    // Empty data dir: lists are reported missing, not silently clean.
    assert.equal(byId.get('tor-exits')?.status, 'missing');
    assert.equal(byId.get('x4bnet-vpn-ipv4')?.status, 'missing');
  });
});
