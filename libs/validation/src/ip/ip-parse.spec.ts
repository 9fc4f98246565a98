import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import {
  bigIntToIpv6,
  ipVersion,
  ipv6ToBigInt,
  parseIp,
  parseIpv4,
  wordsToBigInt,
} from './ip-address';

/** Straightforward split-based IPv6 parser, the reference for the one-pass parser. */
function referenceV6(text: string): bigint {
  let s = text.split('%')[0];
  const lastColon = s.lastIndexOf(':');
  if (s.indexOf('.', lastColon) >= 0) {
    const o = s
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    const hi = (o[0] << 8) | o[1];
    const lo = (o[2] << 8) | o[3];
    s = `${s.slice(0, lastColon + 1)}${hi.toString(16)}:${lo.toString(16)}`;
  }
  const groups = (p: string) => (p === '' ? [] : p.split(':').map((g) => parseInt(g, 16)));
  const gap = s.indexOf('::');
  let all: number[];
  if (gap < 0) all = groups(s);
  else {
    const head = groups(s.slice(0, gap));
    const tail = groups(s.slice(gap + 2));
    all = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return all.reduce((v, g) => (v << 16n) | BigInt(g), 0n);
}

/** Deterministic xorshift, so a failure names a reproducible input. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

describe('one-pass address parsing', () => {
  it('parseIpv4 accepts exactly what net.isIP accepts as IPv4', () => {
    const r = rng(7);
    const pieces = [
      '0',
      '1',
      '9',
      '10',
      '01',
      '00',
      '99',
      '255',
      '256',
      '199',
      '249',
      '300',
      '',
      'a',
      ' ',
      '1e1',
      '-1',
    ];
    const cases = [
      '1.2.3.4',
      '255.255.255.255',
      '0.0.0.0',
      '1.2.3',
      '1.2.3.4.5',
      '1..2.3',
      '.1.2.3',
      '1.2.3.',
      '１.2.3.4',
    ];
    for (let i = 0; i < 20_000; i++) {
      const n = 3 + Math.floor(r() * 3);
      const parts: string[] = [];
      for (let k = 0; k < n; k++) parts.push(pieces[Math.floor(r() * pieces.length)]);
      cases.push(parts.join('.'));
    }
    for (const c of cases) {
      const ok = isIP(c) === 4;
      const v = parseIpv4(c);
      assert.equal(v >= 0, ok, c);
      if (ok) {
        const o = c.split('.').map(Number);
        assert.equal(v, ((o[0] * 256 + o[1]) * 256 + o[2]) * 256 + o[3], c);
      }
    }
  });

  it('IPv6 words match the reference parser on every textual form', () => {
    const r = rng(11);
    const texts = [
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7:8',
      'ABCD:ef01::',
      '::ffff:1.2.3.4',
      '64:ff9b::192.0.2.33',
      'fe80::1%eth0',
      '1:2:3:4:5:6:1.2.3.4',
      '1::8',
      '1:0:0:0:0:0:0:8',
    ];
    for (let i = 0; i < 5_000; i++) {
      let v = 0n;
      for (let k = 0; k < 8; k++) {
        // Runs of zero groups so every `::` position gets exercised.
        const g = r() < 0.4 ? 0 : Math.floor(r() * 65536);
        v = (v << 16n) | BigInt(g);
      }
      texts.push(bigIntToIpv6(v));
      texts.push(bigIntToIpv6(v).toUpperCase());
    }
    for (const t of texts) {
      assert.equal(isIP(t), 6, t);
      assert.equal(ipv6ToBigInt(t), referenceV6(t), t);
      const p = parseIp(t);
      assert.ok(p, t);
      if (p.version === 6) {
        assert.equal(p.v6, referenceV6(t), t);
        assert.equal(wordsToBigInt(p.words), p.v6, t);
      } else {
        // Folded: ::/96 and ::ffff:0:0/96.
        const ref = referenceV6(t);
        assert.ok(ref >> 32n === 0n || ref >> 32n === 0xffffn, t);
        assert.equal(BigInt(p.v4), ref & 0xffffffffn, t);
      }
    }
  });

  it('trims surrounding whitespace only', () => {
    assert.equal(parseIp(' 8.8.8.8\n')?.text, '8.8.8.8');
    assert.equal(parseIp('8.8. 8.8'), null);
  });

  it('ipVersion answers what net.isIP answers, for addresses and near misses alike', () => {
    const r = rng(23);
    const pieces = ['', '0', '1', 'ff', 'FFFF', '10000', 'g', '1.2.3.4', '256.1.1.1', '%eth0', '%'];
    const cases = ['::', ':::', '1:::2', '::1::', 'fe80::1%', 'fe80::1%a b', '1:2:3:4:5:6:7:8:9'];
    for (let i = 0; i < 20_000; i++) {
      const parts: string[] = [];
      for (let k = 1 + Math.floor(r() * 9); k > 0; k--)
        parts.push(pieces[Math.floor(r() * pieces.length)]);
      cases.push(parts.join(r() < 0.8 ? ':' : '::'));
    }
    for (const c of cases) assert.equal(ipVersion(c), isIP(c), c);
    assert.ok(cases.some((c) => isIP(c) === 6) && cases.some((c) => isIP(c) === 0));
  });
});
