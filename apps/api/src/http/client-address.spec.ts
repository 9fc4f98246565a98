import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressSubject } from './client-address';

describe('addressSubject: the subject of a per-address limit', () => {
  it('keeps IPv4 addresses as they are, IPv4-mapped IPv6 included', () => {
    assert.equal(addressSubject('127.0.0.7'), '127.0.0.7');
    assert.equal(addressSubject('::ffff:198.51.100.4'), '198.51.100.4');
    assert.equal(addressSubject('::FFFF:198.51.100.4'), '198.51.100.4');
  });

  it('counts every address of an IPv6 /64 as one, however it is written', () => {
    const same = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0009',
      '2001:db8:1:2:a:b:c:d%eth0',
    ];
    for (const address of same) assert.equal(addressSubject(address), '2001:db8:1:2::/64', address);
    assert.notEqual(addressSubject('2001:db8:1:3::1'), addressSubject('2001:db8:1:2::1'));
  });

  it('expands :: wherever it stands', () => {
    assert.equal(addressSubject('::1'), '0:0:0:0::/64');
    assert.equal(addressSubject('2001:db8::'), '2001:db8:0:0::/64');
    assert.equal(addressSubject('fe80::1:2:3:4'), 'fe80:0:0:0::/64');
    assert.equal(addressSubject('2001:db8:a::b:c:d:e'), '2001:db8:a:0::/64');
    assert.equal(addressSubject('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  });
});
