import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamUnavailableError, VerityError } from '@verity/common';
import { createIpEngine } from './ip.engine';
import { abuseScore, BOGON_ABUSE_SCORE } from './ip-abuse.scorer';
import { IpRangeSet, parseCidr } from './ip-range';
import { NO_LIST_MATCH, type IpListSet } from './ip.types';

const tor = IpRangeSet.from([parseCidr('185.220.101.1')!]);
const lists: IpListSet = {
  match: (ip, asn) =>
    tor.has(ip) || asn === 64500
      ? { ...NO_LIST_MATCH, tor: tor.has(ip), datacenter: asn === 64500 }
      : NO_LIST_MATCH,
};
const engine = createIpEngine({
  geo: { geo: () => ({ country: 'DE', city: 'Berlin' }) },
  asn: {
    asn: (ip) =>
      ip.text === '5.6.7.8' ? { asn: 64500, org: 'Hoster' } : { asn: 3320, org: 'DTAG' },
  },
  anonymous: {
    anonymous: (ip) =>
      ip.text === '9.9.9.9'
        ? { vpn: true, proxy: false, tor: false, datacenter: false, risk: 80 }
        : null,
  },
  lists,
});

describe('createIpEngine', () => {
  it('combines geo, ASN, lists and the anonymous database', () => {
    assert.deepEqual(engine.lookup('185.220.101.1'), {
      input: '185.220.101.1',
      country: 'DE',
      city: 'Berlin',
      asn: 3320,
      asn_org: 'DTAG',
      vpn: false,
      proxy: false,
      tor: true,
      datacenter: false,
      abuse_score: 70,
    });
    const dc = engine.lookup('5.6.7.8');
    assert.equal(dc.datacenter, true);
    assert.equal(dc.abuse_score, 25);
    const vpn = engine.lookup('9.9.9.9');
    assert.equal(vpn.vpn, true);
    assert.equal(vpn.abuse_score, 80, 'ip_risk wins when higher than the flag score');
    assert.equal(engine.lookup('1.2.3.4').abuse_score, 0);
  });

  it('answers bogons without consulting the databases', () => {
    const throwing = createIpEngine({
      geo: {
        geo: () => {
          throw new UpstreamUnavailableError('down', 'ip_data');
        },
      },
      asn: {
        asn: () => {
          throw new UpstreamUnavailableError('down', 'ip_data');
        },
      },
      lists,
    });
    for (const ip of ['10.1.2.3', '::1', 'fd12::1', '100.64.1.1']) {
      assert.deepEqual(throwing.lookup(ip), {
        input: ip,
        country: null,
        city: null,
        asn: null,
        asn_org: null,
        vpn: false,
        proxy: false,
        tor: false,
        datacenter: false,
        abuse_score: BOGON_ABUSE_SCORE,
      });
    }
    assert.throws(
      () => throwing.lookup('8.8.8.8'),
      (e: unknown) => e instanceof UpstreamUnavailableError && e.status === 503,
    );
  });

  it('rejects invalid input with unprocessable', () => {
    for (const bad of ['not-an-ip', '1.2.3.4.5', '', '300.1.1.1']) {
      assert.throws(
        () => engine.lookup(bad),
        (e: unknown) =>
          e instanceof VerityError &&
          e.code === 'unprocessable' &&
          e.message === 'ip must be an IPv4 or IPv6 address',
      );
    }
  });

  it('combines abuse weights as independent evidence', () => {
    const none = {
      tor: false,
      proxy: false,
      vpn: false,
      datacenter: false,
      blocklisted: false,
      risk: null,
    };
    assert.equal(abuseScore(none), 0);
    assert.equal(abuseScore({ ...none, tor: true, vpn: true }), 81);
    assert.equal(
      abuseScore({
        ...none,
        tor: true,
        proxy: true,
        vpn: true,
        datacenter: true,
        blocklisted: true,
      }),
      97,
    );
    assert.equal(abuseScore({ ...none, risk: 99.5 }), 100);
  });
});
