import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bigIntToWords,
  IpRangeTable,
  parseBounds,
  type AsnRecord,
  type IpRange,
  type ParsedIp,
} from '@verity/validation';
import { AsnCsvParser } from './asn-csv.parser';
import { AsnCsvSource } from './asn-csv.source';
import { AsnIndex, serializeAsnIndex } from './asn-index';
import { asnCacheDirs, asnCacheName } from './asn-index.cache';

type Row = readonly [IpRange, AsnRecord];

/** The straightforward row-by-row reading (BigInt, parseBounds) the index must agree with. */
function referenceRows(text: string): Row[] {
  const rows: Row[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const f = line.split(',');
    if (f.length < 3) continue;
    const [a, b] = f;
    let range: IpRange | null;
    if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
      const s = BigInt(a);
      const e = BigInt(b);
      if (s > e) range = null;
      else if (e <= 0xffffffffn) range = { version: 4, start: Number(s), end: Number(e) };
      else range = { version: 6, start: s, end: e };
    } else range = parseBounds(a, b);
    if (range === null) continue;
    const asnNum = Number(f[2]);
    let org = f.slice(3).join(',');
    if (org.length >= 2 && org.startsWith('"') && org.endsWith('"'))
      org = org.slice(1, -1).replace(/""/g, '"');
    rows.push([
      range,
      {
        // ASNs are 32-bit (RFC 6793): anything else is no ASN.
        asn:
          f[2] !== '' && Number.isInteger(asnNum) && asnNum > 0 && asnNum <= 0xffffffff
            ? asnNum
            : null,
        org: org === '' ? null : org,
      },
    ]);
  }
  return rows;
}

function point(version: 4 | 6, v: bigint): ParsedIp {
  return version === 4
    ? { version: 4, v4: Number(v), text: '' }
    : { version: 6, v6: v, words: bigIntToWords(v), text: '' };
}

async function indexOf(texts: string[], key = 'k'): Promise<AsnIndex> {
  const p = new AsnCsvParser();
  for (const t of texts) await p.add(t);
  const idx = AsnIndex.fromBytes(serializeAsnIndex(p.result(), key), key);
  assert.ok(idx);
  return idx;
}

/** Every range in the index equals the reference's, in order, and both ends of every row agree. */
function assertSame(idx: AsnIndex, rows: Row[]): void {
  const ref = IpRangeTable.from(rows);
  const sorted = rows
    .map((r, i) => ({ r, i }))
    .sort((x, y) => {
      if (x.r[0].version !== y.r[0].version) return x.r[0].version - y.r[0].version;
      const d = BigInt(x.r[0].start) - BigInt(y.r[0].start);
      return d < 0n ? -1 : d > 0n ? 1 : x.i - y.i;
    });
  let i = 0;
  for (const [version, start, end, rec] of idx.entries()) {
    const [range, want] = sorted[i++].r;
    assert.equal(version, range.version);
    assert.equal(start, BigInt(range.start));
    assert.equal(end, BigInt(range.end));
    assert.deepEqual(rec, want);
  }
  assert.equal(i, rows.length);
  assert.equal(idx.size, rows.length);
  for (const [range] of rows) {
    for (const v of [BigInt(range.start), BigInt(range.end)]) {
      const p = point(range.version, v);
      assert.deepEqual(idx.get(p), ref.get(p));
    }
  }
}

const SAMPLE = [
  'first,last,asn,org', // header: skipped
  '16777216,16777471,13335,"Cloudflare, Inc."',
  '16778240,16779263,38803,Gtelecom Pty Ltd\r',
  '1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd',
  '8.8.8.0,8.8.8.255,15169,"Say ""hi"" LLC"',
  '3000000000,2000000000,1,Backwards', // first > last: skipped
  '100.0.0.0,100.0.0.255,,', // no ASN, no org
  '5.0.0.0,5.0.0.255,4294967296,Too big', // ASN beyond 32 bits → null
  '42540488161975842760550356425300246528,42540488241204005274814694018844196863,6939,Hurricane Electric LLC',
  '2001:db8::,2001:db8::ffff,64500,Doc',
  '2.0.0.0,2.0.0.255,3215,Orange',
  '2.0.0.0,2.0.0.127,3216,Orange', // same start as the row above: the later one wins
  '0,79228162514264337593543950335,7,Wide', // ends beyond 2^32: an IPv6 row (::/32)
  '340282366920938463463374607431768211455,340282366920938463463374607431768211455,9,Top',
  '',
].join('\n');

describe('ASN binary index', () => {
  it('reads every CSV row form exactly like the reference (quotes, CRLF, text and decimal, unsorted, duplicates)', async () => {
    const idx = await indexOf([SAMPLE]);
    assertSame(idx, referenceRows(SAMPLE));
    assert.deepEqual(idx.get(point(4, 0x08080808n)), { asn: 15169, org: 'Say "hi" LLC' });
    assert.deepEqual(idx.get(point(4, 0x64000001n)), { asn: null, org: null });
    assert.deepEqual(idx.get(point(4, 0x05000001n)), { asn: null, org: 'Too big' });
    assert.deepEqual(idx.get(point(4, 0x02000001n)), { asn: 3216, org: 'Orange' });
    assert.equal(idx.get(point(4, 0x09000000n)), null);
  });

  const pkg = join(process.cwd(), 'node_modules', '@ip-location-db', 'asn');
  it(
    'round-trips every range of the installed @ip-location-db/asn CSV exactly',
    {
      skip: !existsSync(pkg) && 'package not installed',
    },
    async () => {
      const files = readdirSync(pkg)
        .filter((f) => f.endsWith('-num.csv'))
        .sort()
        .map((f) => readFileSync(join(pkg, f), 'utf8'));
      const idx = await indexOf(files);
      const rows = files.flatMap(referenceRows);
      assert.ok(rows.length > 400_000, `${rows.length} rows`);
      assertSame(idx, rows);
    },
  );

  it('rejects bytes that are not a consistent index for the expected key', () => {
    const p = new AsnCsvParser();
    p.addSlice(SAMPLE, 0, 1000);
    const bytes = serializeAsnIndex(p.result(), 'key-1');
    assert.ok(AsnIndex.fromBytes(bytes, 'key-1'));
    assert.equal(AsnIndex.fromBytes(bytes, 'key-2'), null, 'other key');
    assert.equal(AsnIndex.fromBytes(bytes.subarray(0, bytes.length - 4), null), null, 'truncated');
    const badMagic = Buffer.from(bytes);
    badMagic[0] ^= 0xff;
    assert.equal(AsnIndex.fromBytes(badMagic, null), null, 'magic');
    // A record index past the record table (here: the first v4 range's) must not load.
    const badRec = Buffer.from(bytes);
    const h = new Uint32Array(badRec.buffer, badRec.byteOffset, 16);
    const recAt = 64 + ((h[6] + 3) & ~3) + 8 * h[2];
    badRec.writeUInt32LE(h[4], recAt);
    assert.equal(AsnIndex.fromBytes(badRec, null), null, 'record index');
  });

  it('caches for the shared install under node_modules/.cache first, then the data dir', () => {
    const dirs = asnCacheDirs('/srv/app/node_modules/@ip-location-db/asn', '/data/ip');
    assert.deepEqual(dirs, ['/srv/app/node_modules/.cache/verity', '/data/ip/.cache']);
    assert.deepEqual(asnCacheDirs('/byo/asn.csv', '/data/ip'), ['/data/ip/.cache']);
  });
});

describe('AsnCsvSource cache', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-asn-idx-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds once, loads from the cache next time, and rebuilds when the source changes', async () => {
    const csv = join(dir, 'asn.csv');
    const cacheDir = join(dir, 'cache');
    await writeFile(csv, '1.0.0.0,1.0.0.255,111,First Org\n');
    const ip = point(4, 0x01000001n);

    const a = new AsnCsvSource(csv, 1e12, [cacheDir]);
    await a.load();
    assert.equal(a.origin, 'csv');
    assert.deepEqual(a.get(ip), { asn: 111, org: 'First Org' });
    const cacheFile = join(cacheDir, asnCacheName(csv));
    assert.ok((await stat(cacheFile)).size > 0);

    const b = new AsnCsvSource(csv, 1e12, [cacheDir]);
    await b.load();
    assert.equal(b.origin, 'cache');
    assert.deepEqual(b.get(ip), { asn: 111, org: 'First Org' });
    assert.equal(b.status().entries, 1);

    // Same size, new content and mtime (as an `npm update` would leave it): a rebuild.
    await writeFile(csv, '1.0.0.0,1.0.0.255,222,Other Org\n');
    const later = new Date(Date.now() + 5_000);
    await utimes(csv, later, later);
    await b.load();
    assert.equal(b.origin, 'csv');
    assert.deepEqual(b.get(ip), { asn: 222, org: 'Other Org' });

    // A damaged cache file is ignored and rewritten.
    const bytes = await readFile(cacheFile);
    await writeFile(cacheFile, bytes.subarray(0, 40));
    const c = new AsnCsvSource(csv, 1e12, [cacheDir]);
    await c.load();
    assert.equal(c.origin, 'csv');
    assert.deepEqual(c.get(ip), { asn: 222, org: 'Other Org' });
    const d = new AsnCsvSource(csv, 1e12, [cacheDir]);
    await d.load();
    assert.equal(d.origin, 'cache');
  });

  it('works without a writable cache directory', async () => {
    const csv = join(dir, 'asn2.csv');
    await writeFile(csv, '2.0.0.0,2.0.0.255,5,X\n');
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'file');
    const s = new AsnCsvSource(csv, 1e12, [join(blocker, 'sub')]);
    await s.load();
    assert.equal(s.status().status, 'loaded');
    assert.deepEqual(s.get(point(4, 0x02000001n)), { asn: 5, org: 'X' });
  });
});
