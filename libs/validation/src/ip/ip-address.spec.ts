import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bigIntToIpv6, intToIpv4, ipv6ToBigInt, parseIp } from './ip-address';
import { isBogon } from './ip-bogon';
import { IpRangeSet, IpRangeTable, parseCidr } from './ip-range';

const must = (text: string) => {
  const ip = parseIp(text);
  assert.ok(ip, text);
  return ip;
};

describe('ip-address', () => {
  it('parses IPv4 to uint32 and back', () => {
    const ip = must('203.0.113.7');
    assert.equal(ip.version, 4);
    assert.equal(ip.version === 4 && ip.v4, 0xcb007107);
    assert.equal(intToIpv4(0xffffffff), '255.255.255.255');
  });

  it('parses IPv6 forms, including embedded IPv4 tails and zones', () => {
    assert.equal(ipv6ToBigInt('2001:db8::1'), 0x20010db8000000000000000000000001n);
    assert.equal(ipv6ToBigInt('::'), 0n);
    assert.equal(ipv6ToBigInt('1::'), 1n << 112n);
    assert.equal(ipv6ToBigInt('64:ff9b::192.0.2.33'), 0x0064ff9b0000000000000000c0000221n);
    assert.equal(ipv6ToBigInt('fe80::1%eth0'), 0xfe800000000000000000000000000001n);
    assert.equal(bigIntToIpv6(0x20010db8000000000000000000000001n), '2001:db8::1');
    assert.equal(bigIntToIpv6(0x20010db8000100000000000000000000n), '2001:db8:1::');
  });

  it('folds IPv4-mapped and IPv4-compatible IPv6 to IPv4', () => {
    const mapped = must('::ffff:81.2.69.160');
    assert.equal(mapped.version, 4);
    assert.equal(mapped.text, '81.2.69.160');
    assert.equal(must('::81.2.69.160').text, '81.2.69.160');
    assert.equal(must('2a02:ff::1').version, 6);
  });

  it('rejects non-addresses', () => {
    for (const bad of [
      '',
      'abc',
      '1.2.3',
      '1.2.3.256',
      '1.2.3.4/24',
      'gggg::1',
      ' ',
      '01.2.3.4x',
    ]) {
      assert.equal(parseIp(bad), null, bad);
    }
  });
});

describe('ip-range', () => {
  it('parses CIDRs and masks host bits', () => {
    assert.deepEqual(parseCidr('10.1.2.3/8'), { version: 4, start: 0x0a000000, end: 0x0affffff });
    assert.deepEqual(parseCidr('1.2.3.4'), { version: 4, start: 0x01020304, end: 0x01020304 });
    assert.equal(parseCidr('1.2.3.4/33'), null);
    assert.equal(parseCidr('1.2.3.4/'), null);
    const r = parseCidr('2001:db8::/32');
    assert.ok(r && r.version === 6);
    assert.equal(r.end - r.start, (1n << 96n) - 1n);
  });

  it('answers membership at range edges after merging', () => {
    const set = IpRangeSet.from(
      ['1.0.0.0/24', '1.0.1.0/24', '5.5.5.5', '2001:db8::/48'].map((c) => parseCidr(c)!),
    );
    assert.equal(set.size, 3, 'adjacent /24s merge');
    for (const yes of ['1.0.0.0', '1.0.1.255', '5.5.5.5', '2001:db8::', '2001:db8:0:ffff::1'])
      assert.ok(set.has(must(yes)), yes);
    for (const no of [
      '0.255.255.255',
      '1.0.2.0',
      '5.5.5.4',
      '5.5.5.6',
      '2001:db8:1::',
      '::ffff:1.0.2.0',
    ]) {
      assert.equal(set.has(must(no)), false, no);
    }
  });

  it('looks up valued ranges', () => {
    const t = IpRangeTable.from([
      [parseCidr('8.8.8.0/24')!, 'google'],
      [parseCidr('1.1.1.0/24')!, 'cloudflare'],
    ]);
    assert.equal(t.get(must('8.8.8.8')), 'google');
    assert.equal(t.get(must('1.1.1.1')), 'cloudflare');
    assert.equal(t.get(must('1.1.2.1')), null);
    assert.equal(t.get(must('2001::1')), null);
  });
});

describe('ip-bogon', () => {
  it('flags private, reserved and special-purpose addresses', () => {
    const bogons = [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '2001:db8::1',
      '::ffff:10.0.0.1',
      '198.18.0.1',
      '240.0.0.1',
    ];
    for (const b of bogons) assert.ok(isBogon(must(b)), b);
    for (const g of [
      '8.8.8.8',
      '1.1.1.1',
      '2a00:1450::1',
      '100.128.0.1',
      '172.32.0.1',
      'abcd:1000::1',
    ]) {
      assert.equal(isBogon(must(g)), false, g);
    }
  });
});
