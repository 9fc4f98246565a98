import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenAddressReason } from './address.policy';

describe('forbiddenAddressReason', () => {
  it('refuses non-public IPv4 ranges', () => {
    const cases: Record<string, string> = {
      '0.0.0.0': 'unspecified',
      '10.1.2.3': 'private',
      '100.64.0.1': 'cgnat',
      '100.127.255.255': 'cgnat',
      '127.0.0.1': 'loopback',
      '127.255.0.9': 'loopback',
      '169.254.169.254': 'metadata',
      '168.63.129.16': 'metadata',
      '169.254.1.1': 'link-local',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      '192.0.2.10': 'documentation',
      '198.18.0.1': 'reserved',
      '224.0.0.251': 'multicast',
      '239.255.255.250': 'multicast',
      '255.255.255.255': 'reserved',
    };
    for (const [ip, reason] of Object.entries(cases)) {
      assert.equal(forbiddenAddressReason(ip), reason, ip);
    }
  });

  it('refuses non-public IPv6 ranges and IPv6 forms of refused IPv4', () => {
    const cases: Record<string, string> = {
      '::': 'unspecified',
      '::1': 'loopback',
      'fe80::1': 'link-local',
      'fc00::1': 'private',
      'fd12:3456::1': 'private',
      'fd00:ec2::254': 'metadata',
      'ff02::1': 'multicast',
      '2001:db8::1': 'documentation',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:7f00:1': 'loopback',
      '::ffff:169.254.169.254': 'metadata',
      '::ffff:10.0.0.1': 'private',
      '64:ff9b::a9fe:a9fe': 'metadata',
      '2002:c0a8:0101::1': 'private',
      '::127.0.0.1': 'reserved',
      '2001:0:4136:e378::1': 'reserved',
    };
    for (const [ip, reason] of Object.entries(cases)) {
      assert.equal(forbiddenAddressReason(ip), reason, ip);
    }
  });

  it('allows public unicast addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '169.253.255.255',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      assert.equal(forbiddenAddressReason(ip), null, ip);
    }
  });

  it('treats anything that is not an IP literal as reserved', () => {
    assert.equal(forbiddenAddressReason('example.com'), 'reserved');
    assert.equal(forbiddenAddressReason('127.1'), 'reserved');
  });
});
