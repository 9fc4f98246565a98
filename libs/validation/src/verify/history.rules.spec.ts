import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IpFields, PhoneFields } from '@verity/contracts';
import { scoreFraud } from './fraud.scorer';
import type { FraudReasonCode } from './fraud.types';
import type { ValueHistory } from './history.types';

const phone: PhoneFields = {
  input: '+447400123456',
  valid: true,
  e164: '+447400123456',
  country: 'GB',
  line_type: 'mobile',
  carrier: null,
  hlr: null,
  score: 80,
};
const ip: IpFields = {
  input: '81.2.69.160',
  country: 'GB',
  city: null,
  asn: 64500,
  asn_org: 'Example Broadband',
  vpn: false,
  proxy: false,
  tor: false,
  datacenter: false,
  abuse_score: 0,
};

function seen(linked: number, reported: Partial<ValueHistory['reported']> = {}): ValueHistory {
  return {
    linked: { h1: linked, h24: linked, d30: linked },
    firstSeenAgoMs: 0,
    calls: linked,
    reported: { fraud: 0, legitimate: 0, ...reported },
  };
}

const points = (r: ReturnType<typeof scoreFraud>): Partial<Record<FraudReasonCode, number>> =>
  Object.fromEntries(r.reasons.map((x) => [x.code, x.points]));

void describe('history rules', () => {
  void it('score a call without history as before', () => {
    const plain = scoreFraud({ phone, ip });
    assert.deepEqual(scoreFraud({ phone, ip, history: {} }), plain);
    assert.deepEqual(points(plain), { phone_clean: -15, ip_clean: -15 });
  });

  void it('grade the emails behind one IP address and take its clean credit away', () => {
    const few = scoreFraud({ ip, history: { ip: seen(2), subnet: seen(2) } });
    assert.deepEqual(points(few), { ip_clean: -15 });
    const ring = scoreFraud({ ip, history: { ip: seen(12), subnet: seen(12) } });
    assert.deepEqual(points(ring), {
      ip_velocity_1h: 20,
      ip_velocity_24h: 3,
      ip_subnet_velocity_1h: 10,
    });
    assert.equal(ring.fraud_score, 40 + 33);
    const reason = ring.reasons.find((r) => r.code === 'ip_velocity_1h');
    assert.match(
      reason?.description ?? '',
      /^12 distinct emails from this IP address in the last hour/,
    );
  });

  void it('grade a phone shared by several emails', () => {
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: seen(2) } })), {
      phone_clean: -15,
    });
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: seen(4) } })), {
      phone_shared_24h: 20,
    });
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: seen(9) } })), {
      phone_shared_24h: 30,
      phone_shared_30d: 10,
    });
  });

  void it('let legitimate reports on an address outweigh its velocity (an office behind one IP)', () => {
    const office = { ip: seen(80, { legitimate: 3 }), subnet: seen(85) };
    const result = scoreFraud({ ip, history: office });
    assert.deepEqual(points(result), { ip_clean: -15, ip_reported_legitimate: -10 });
    // Half a fresh report more legitimate than fraud is the margin; below it velocity counts.
    const contested = scoreFraud({
      ip,
      history: { ...office, ip: seen(80, { legitimate: 1, fraud: 0.6 }) },
    });
    assert.equal(points(contested).ip_velocity_1h, 20);
  });

  void it('raise later scores by reported fraud, in proportion to the net decayed weight', () => {
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: seen(1, { fraud: 1 }) } })), {
      phone_reported_fraud: 30,
    });
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: seen(1, { fraud: 0.5 }) } })), {
      phone_reported_fraud: 15,
    });
    // A fraud report on the /24 does not reach an address the account vouched for.
    const vouchedIp = { ip: seen(1, { legitimate: 2 }), subnet: seen(1, { fraud: 4 }) };
    assert.deepEqual(points(scoreFraud({ ip, history: vouchedIp })), {
      ip_clean: -15,
      ip_reported_legitimate: -10,
    });
    const neighbour = { ip: seen(1), subnet: seen(1, { fraud: 4 }) };
    assert.deepEqual(points(scoreFraud({ ip, history: neighbour })), {
      ip_subnet_reported_fraud: 10,
    });
  });

  void it('credit values first seen at least 7 days ago, only while the signal is clean', () => {
    const old = { ...seen(1), firstSeenAgoMs: 8 * 24 * 3600 * 1000 };
    assert.deepEqual(points(scoreFraud({ phone, history: { phone: old } })), {
      phone_clean: -15,
      phone_established: -5,
    });
    assert.deepEqual(
      points(scoreFraud({ phone: { ...phone, line_type: 'voip' }, history: { phone: old } })),
      { phone_voip: 15 },
    );
  });

  void it('read history only for the results the call supplied', () => {
    const result = scoreFraud({ phone, history: { ip: seen(50, { fraud: 5 }) } });
    assert.deepEqual(points(result), { phone_clean: -15 });
  });
});
