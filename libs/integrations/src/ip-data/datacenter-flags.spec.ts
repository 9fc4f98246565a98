import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '@verity/config';
import { buildIpEngine, type IpEngineHandle } from './ip-engine.builder';

/**
 * Consumer (eyeball) ISPs: residential broadband and mobile networks. Their address pools
 * are taken from the bundled routing data (npm @ip-location-db/asn, CC BY 4.0), not typed in.
 */
const CONSUMER_ASNS = new Map<number, string>([
  [7922, 'Comcast'], [701, 'Verizon'], [7018, 'AT&T'], [20115, 'Charter'], [22773, 'Cox'],
  [812, 'Rogers'], [577, 'Bell Canada'], [6327, 'Shaw'], [852, 'Telus'],
  [3320, 'Deutsche Telekom'], [3209, 'Vodafone DE'], [6805, 'Telefonica DE'],
  [3215, 'Orange FR'], [12322, 'Free'], [2856, 'BT'], [5089, 'Virgin Media'], [5607, 'Sky UK'],
  [3352, 'Telefonica ES'], [12479, 'Orange ES'], [3269, 'Telecom Italia'], [1136, 'KPN'],
  [5432, 'Proximus'], [3303, 'Swisscom'], [8447, 'A1 Telekom AT'], [5610, 'O2 CZ'],
  [5617, 'Orange PL'], [2119, 'Telenor NO'], [3301, 'Telia SE'], [719, 'Elisa'],
  [12389, 'Rostelecom'], [9121, 'Turk Telekom'], [4713, 'NTT OCN'], [17676, 'SoftBank'],
  [4766, 'Korea Telecom'], [1221, 'Telstra'], [9829, 'BSNL'], [45609, 'Bharti Airtel'],
  [28573, 'Claro BR'], [8151, 'Telmex'],
]); // prettier-ignore

/**
 * Known disagreements between two bundled snapshots: X4BNet lists these blocks as datacenter
 * ranges while the routing data gives them to a consumer ISP. Each must still disagree (the
 * test fails when one stops, so the list is pruned), and no other block may be flagged.
 */
const DISAGREEING_RANGES: ReadonlyArray<readonly [lo: number, hi: number, label: string]> = [
  [ipv4('74.3.160.0'), ipv4('74.3.167.255'), '74.3.160.0/21 (Shaw)'],
  [ipv4('158.247.96.0'), ipv4('158.247.111.255'), '158.247.96.0/20 (Cox)'],
];

/** Residential pools are big: blocks smaller than this are often leased to hosting customers. */
const MIN_POOL = 4096;
const POOLS_PER_ASN = 200;

function ipv4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}
function text(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** The bundled routing data's IPv4 rows: `start,end,asn,org` with numeric addresses. */
function routingRows(): string[] {
  const csv = join(
    dirname(createRequire(__filename).resolve('@ip-location-db/asn/package.json')),
    'asn-ipv4-num.csv',
  );
  return readFileSync(csv, 'utf8').split('\n');
}

/** Three addresses (near both ends and the middle) of each large pool of each consumer ASN. */
function consumerSamples(): Array<{ ip: string; n: number; isp: string }> {
  const perAsn = new Map<number, number>();
  const out: Array<{ ip: string; n: number; isp: string }> = [];
  for (const line of routingRows()) {
    const [start, end, asnText] = line.split(',');
    const isp = CONSUMER_ASNS.get(Number(asnText));
    if (isp === undefined) continue;
    const lo = Number(start);
    const hi = Number(end);
    const used = perAsn.get(Number(asnText)) ?? 0;
    if (hi - lo + 1 < MIN_POOL || used >= POOLS_PER_ASN) continue;
    perAsn.set(Number(asnText), used + 1);
    for (const n of [lo + 1, Math.floor((lo + hi) / 2), hi - 1]) out.push({ ip: text(n), n, isp });
  }
  return out;
}

/** Cloud ASNs the bundled X4BNet ASN list lacks (the misses). */
const CLOUD_ASNS_NOT_IN_LIST = [8987, 19527, 36040, 36492, 139070];

describe('datacenter flags with the bundled data', () => {
  let home: string;
  let ip: IpEngineHandle;

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'verity-consumer-isp-'));
    ip = await buildIpEngine(loadConfig({ VERITY_HOME: home }), { pollMs: 0 });
  });
  after(async () => {
    await ip.close();
    await rm(home, { recursive: true, force: true });
  });

  it('flags the cloud providers’ own ASNs that the bundled ASN list lacks', () => {
    const missed: string[] = [];
    let checked = 0;
    for (const line of routingRows()) {
      const [start, end, asnText] = line.split(',');
      if (!CLOUD_ASNS_NOT_IN_LIST.includes(Number(asnText))) continue;
      for (const n of [Number(start), Number(end)]) {
        checked++;
        if (!ip.engine.lookup(text(n)).datacenter) missed.push(`${text(n)} AS${asnText}`);
      }
    }
    assert.ok(checked > 100, `${checked} addresses`);
    assert.deepEqual(missed, []);
  });

  it('flags no address of a residential pool as datacenter beyond the known disagreements', () => {
    const samples = consumerSamples();
    const isps = new Set(samples.map((s) => s.isp));
    assert.ok(samples.length > 5000, `${samples.length} addresses`);
    assert.equal(isps.size, CONSUMER_ASNS.size, 'every ISP has large pools in the data');
    const unexplained: string[] = [];
    const seen = new Set<string>();
    for (const s of samples) {
      if (!ip.engine.lookup(s.ip).datacenter) continue;
      const known = DISAGREEING_RANGES.find(([lo, hi]) => s.n >= lo && s.n <= hi);
      if (known === undefined) unexplained.push(`${s.ip} (${s.isp})`);
      else seen.add(known[2]);
    }
    console.log(
      `consumer ISP addresses: ${samples.length} over ${isps.size} ISPs, ${unexplained.length} unexplained datacenter flags`,
    );
    assert.deepEqual(unexplained, []);
    assert.deepEqual([...seen].sort(), DISAGREEING_RANGES.map((r) => r[2]).sort());
  });
});
