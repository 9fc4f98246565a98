import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import { bigIntToIpv6, intToIpv4, parseCidr, parseIp } from '@verity/validation';
import { maxmindFixtureDir } from '@verity/testing';
import { MmdbSource } from './mmdb.source';
import { MMDB_NOT_FOUND, MmdbTree } from './mmdb.tree';

const FIX = maxmindFixtureDir();

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/** Addresses to compare on: both ends of every documented network, then random ones. */
function probeAddresses(sourceJson: string | null, randomCount: number): string[] {
  const out: string[] = [];
  if (sourceJson !== null && existsSync(sourceJson)) {
    const raw = JSON.parse(readFileSync(sourceJson, 'utf8')) as Record<string, unknown>[];
    for (const o of raw)
      for (const net of Object.keys(o)) {
        const m = /^::(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(net);
        const r = parseCidr(m ? `${m[1]}/${Number(m[2]) - 96}` : net);
        if (r === null) continue;
        if (r.version === 4) out.push(intToIpv4(r.start), intToIpv4(r.end));
        else out.push(bigIntToIpv6(r.start), bigIntToIpv6(r.end));
      }
  }
  const next = rng(42);
  for (let i = 0; i < randomCount; i++) {
    const v = next();
    if (i % 3 === 0) {
      const hex = () => (next() & 0xffff).toString(16);
      out.push(`2${(v & 0xfff).toString(16).padStart(3, '0')}:${hex()}:${hex()}::${hex()}`);
    } else out.push(intToIpv4(v));
  }
  return out;
}

/** What the previous implementation answered: reader.get(text) over the files in order. */
function viaReaders(readers: Reader<Response>[], text: string): unknown {
  const ip = parseIp(text)!;
  for (const r of readers) {
    if (ip.version === 6 && r.metadata.ipVersion === 4) continue;
    const rec = r.get(ip.text);
    if (rec !== null) return rec;
  }
  return null;
}

const identity = (r: unknown): unknown => r;

async function compare(path: string, files: string[], probes: string[]): Promise<number> {
  const src = new MmdbSource('t', 'city-db', path, true, 1e12, identity);
  await src.load();
  const readers = await Promise.all(files.map((f) => maxmind.open<Response>(f)));
  readers.sort((a, b) => a.metadata.ipVersion - b.metadata.ipVersion);
  let found = 0;
  for (const text of probes) {
    const expected = viaReaders(readers, text);
    assert.deepEqual(src.get(parseIp(text)!), expected, text);
    // Second call answers from the mapped-record cache: still the same record.
    assert.deepEqual(src.get(parseIp(text)!), expected, text);
    if (expected !== null) found++;
  }
  return found;
}

describe('MmdbTree: direct tree walk', () => {
  it('answers exactly like maxmind Reader.get on every MaxMind test database', async () => {
    const files = readdirSync(FIX).filter(
      (f) => f.endsWith('.mmdb') && !f.includes('Invalid-Node-Count') && !f.includes('Broken'),
    );
    assert.ok(files.length >= 7, files.join());
    for (const f of files) {
      const json = join(FIX, 'source-data', f.replace('.mmdb', '.json'));
      const probes = probeAddresses(json, 2_000);
      const found = await compare(join(FIX, f), [join(FIX, f)], probes);
      assert.ok(found > 0, `${f}: some probes must hit data`);
    }
  });

  const cityDir = join(process.cwd(), 'node_modules', '@ip-location-db', 'geolite2-city-mmdb');
  it(
    'answers exactly like Reader.get on the installed GeoLite2 City files (IPv4 + IPv6 trees, 24-bit records)',
    {
      skip: !existsSync(cityDir) && 'package not installed',
    },
    async () => {
      const files = readdirSync(cityDir)
        .filter((f) => f.endsWith('.mmdb'))
        .map((f) => join(cityDir, f));
      const found = await compare(cityDir, files, probeAddresses(null, 30_000));
      assert.ok(found > 10_000, `found ${found}`);
    },
  );

  it('walks 24-, 28- and 32-bit record layouts (synthetic trees)', () => {
    for (const recordSize of [24, 28, 32]) {
      // Tree for 128.0.0.0/1 → data A, 64.0.0.0/2 → data B, 0.0.0.0/2 → nothing (IPv4 tree).
      // Node 0: left → node 1, right → data A; node 1: left → empty, right → data B.
      const nodeCount = 2;
      const dataA = nodeCount + 16 + 5;
      const dataB = nodeCount + 16 + 9;
      const nodes: [number, number][] = [
        [1, dataA],
        [nodeCount, dataB],
      ];
      const nodeBytes = recordSize / 4;
      const db = new Uint8Array(nodeCount * nodeBytes + 64);
      nodes.forEach(([l, r], n) => writeNode(db, n * nodeBytes, recordSize, l, r));
      const tree = new MmdbTree(db, { nodeCount, recordSize, ipVersion: 4 });
      assert.equal(tree.findV4(0x80000001), dataA, `${recordSize} 128.0.0.1`);
      assert.equal(tree.findV4(0x40000000), dataB, `${recordSize} 64.0.0.0`);
      assert.equal(tree.findV4(0x3fffffff), MMDB_NOT_FOUND, `${recordSize} 63.255.255.255`);
    }
  });

  it('a tree larger than its file fails lookups instead of reading garbage', () => {
    const tree = new MmdbTree(new Uint8Array(12), { nodeCount: 10, recordSize: 24, ipVersion: 6 });
    assert.throws(() => tree.findV4(1), /larger than the file/);
  });
});

/** Encodes one node as the MaxMind DB spec lays it out (independent of MmdbTree's reader). */
function writeNode(db: Uint8Array, o: number, size: number, left: number, right: number): void {
  if (size === 24) {
    db.set(
      [left >>> 16, (left >>> 8) & 255, left & 255, right >>> 16, (right >>> 8) & 255, right & 255],
      o,
    );
  } else if (size === 28) {
    const mid = (((left >>> 24) & 15) << 4) | ((right >>> 24) & 15);
    db.set(
      [
        (left >>> 16) & 255,
        (left >>> 8) & 255,
        left & 255,
        mid,
        (right >>> 16) & 255,
        (right >>> 8) & 255,
        right & 255,
      ],
      o,
    );
  } else {
    const dv = new DataView(db.buffer);
    dv.setUint32(o, left);
    dv.setUint32(o + 4, right);
  }
}
