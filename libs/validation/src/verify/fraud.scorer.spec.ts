import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EmailFields, IpFields, PhoneFields } from '@verity/contracts';
import { FRAUD_BASE } from './fraud.rules';
import { riskFor, scoreFraud } from './fraud.scorer';
import type { FraudReasonCode } from './fraud.types';

const email: EmailFields = {
  input: 'jane.doe@gmail.com',
  valid_syntax: true,
  mx_found: true,
  disposable: false,
  role_based: false,
  free_provider: true,
  did_you_mean: null,
  deliverability: 'deliverable',
  score: 90,
};
const phone: PhoneFields = {
  input: '+14155552671',
  valid: true,
  e164: '+14155552671',
  country: 'US',
  line_type: 'mobile',
  carrier: 'Example Wireless',
  hlr: null,
  score: 80,
};
const ip: IpFields = {
  input: '198.51.100.7',
  country: 'US',
  city: 'San Francisco',
  asn: 7922,
  asn_org: 'Example Cable',
  vpn: false,
  proxy: false,
  tor: false,
  datacenter: false,
  abuse_score: 0,
};

const codes = (r: ReturnType<typeof scoreFraud>): FraudReasonCode[] =>
  r.reasons.map((x) => x.code).sort();

void describe('riskFor', () => {
  void it('uses low < 30 <= medium < 60 <= high', () => {
    assert.equal(riskFor(0), 'low');
    assert.equal(riskFor(29), 'low');
    assert.equal(riskFor(30), 'medium');
    assert.equal(riskFor(59), 'medium');
    assert.equal(riskFor(60), 'high');
    assert.equal(riskFor(100), 'high');
  });

  void it('reads a non-number as high (fail closed)', () => {
    assert.equal(riskFor(Number.NaN), 'high');
  });
});

void describe('scoreFraud', () => {
  void it('all-clean email, phone and IP is low with only credits as reasons', () => {
    const r = scoreFraud({ email, phone, ip });
    assert.equal(r.fraud_score, 0);
    assert.equal(r.risk, 'low');
    assert.deepEqual(codes(r), ['email_clean', 'email_deliverable', 'ip_clean', 'phone_clean']);
    assert.ok(r.reasons.every((x) => x.points < 0));
  });

  void it('a single clean result is low, and an empty request is the base (medium)', () => {
    assert.deepEqual(scoreFraud({ ip }), {
      fraud_score: 25,
      risk: 'low',
      reasons: [
        { code: 'ip_clean', description: 'IP passed every check', points: -15, signal: 'ip' },
      ],
    });
    assert.equal(scoreFraud({ email: { ...email, deliverability: 'unknown' } }).fraud_score, 25);
    assert.equal(scoreFraud({ email }).fraud_score, 20);
    assert.deepEqual(scoreFraud({}), { fraud_score: FRAUD_BASE, risk: 'medium', reasons: [] });
  });

  void it('tor + disposable is high and names both signals and their combination', () => {
    const r = scoreFraud({ email: { ...email, disposable: true }, ip: { ...ip, tor: true } });
    assert.equal(r.fraud_score, 100);
    assert.equal(r.risk, 'high');
    assert.deepEqual(codes(r), [
      'cross_disposable_email_anonymous_ip',
      'email_disposable',
      'ip_tor',
    ]);
    // Raw sum is 40 + 25 + 30 + 15 = 110, clamped to 100.
    assert.equal(FRAUD_BASE + r.reasons.reduce((s, x) => s + x.points, 0), 110);
  });

  void it('country mismatch adds exactly its weight', () => {
    const same = scoreFraud({ phone, ip });
    const differs = scoreFraud({ phone, ip: { ...ip, country: 'DE' } });
    assert.equal(same.fraud_score, 10);
    assert.equal(differs.fraud_score, same.fraud_score + 15);
    const mismatch = differs.reasons.find((x) => x.code === 'cross_country_mismatch');
    assert.deepEqual(mismatch?.points, 15);
    assert.equal(mismatch?.signal, 'cross');
  });

  void it('compares countries case- and space-insensitively and ignores unknown ones', () => {
    const input = { phone, ip: { ...ip, country: ' us ' } };
    assert.ok(!codes(scoreFraud(input)).includes('cross_country_mismatch'));
    assert.ok(
      !codes(scoreFraud({ phone, ip: { ...ip, country: null } })).includes(
        'cross_country_mismatch',
      ),
    );
  });

  void it('a risky result loses its clean credit', () => {
    const r = scoreFraud({ ip: { ...ip, vpn: true } });
    assert.deepEqual(codes(r), ['ip_vpn']);
    assert.equal(r.fraud_score, 55);
    assert.equal(r.risk, 'medium');
  });

  void it('grades the abuse score: 1 point per 4 above 20, at most 20', () => {
    const points = (abuse_score: number): number =>
      scoreFraud({ ip: { ...ip, abuse_score } }).reasons.find((x) => x.code === 'ip_abuse')
        ?.points ?? 0;
    assert.equal(points(20), 0);
    assert.equal(points(21), 1);
    assert.equal(points(60), 10);
    assert.equal(points(100), 20);
    assert.equal(points(Number.NaN), 20, 'a non-number is read as the worst value');
  });

  void it('scores an undeliverable email with an invalid phone as high', () => {
    const r = scoreFraud({
      email: { ...email, deliverability: 'undeliverable', score: 10 },
      phone: { ...phone, valid: false, country: null, line_type: 'unknown', score: 0 },
    });
    assert.deepEqual(codes(r), [
      'cross_invalid_phone_free_email',
      'cross_no_reachable_contact',
      'email_low_score',
      'email_undeliverable',
      'phone_invalid',
      'phone_low_score',
    ]);
    assert.equal(r.risk, 'high');
  });

  void it('HLR: active earns a credit, inactive adds risk; ported and roaming are not read', () => {
    const active = scoreFraud({
      phone: { ...phone, hlr: { status: 'active', ported: true, roaming: true } },
    });
    assert.equal(active.fraud_score, FRAUD_BASE - 15 - 8);
    const inactive = scoreFraud({
      phone: { ...phone, hlr: { status: 'inactive', ported: false, roaming: false } },
    });
    assert.deepEqual(codes(inactive), ['phone_hlr_inactive']);
    assert.equal(inactive.fraud_score, FRAUD_BASE + 25);
  });

  void it('voip and premium lines are risky, premium more so', () => {
    const voip = scoreFraud({ phone: { ...phone, line_type: 'voip' } }).fraud_score;
    const premium = scoreFraud({ phone: { ...phone, line_type: 'premium' } }).fraud_score;
    assert.equal(voip, FRAUD_BASE + 15);
    assert.equal(premium, FRAUD_BASE + 25);
  });

  void it('lists risks first, then credits, each largest first', () => {
    const risky = scoreFraud({
      email: { ...email, role_based: true },
      ip: { ...ip, tor: true, vpn: true },
    });
    assert.deepEqual(
      risky.reasons.map((x) => x.points),
      [30, 15, 5],
    );
    const mixed = scoreFraud({ email, phone, ip: { ...ip, vpn: true } });
    assert.deepEqual(
      mixed.reasons.map((x) => x.code),
      ['ip_vpn', 'email_clean', 'phone_clean', 'email_deliverable'],
    );
  });

  void it('does not mutate its input', () => {
    const input = { email: { ...email }, phone: { ...phone }, ip: { ...ip } };
    const copy = structuredClone(input);
    scoreFraud(input);
    assert.deepEqual(input, copy);
  });
});

void describe('scoreFraud notes on the email DNS evidence', () => {
  const unanswered: EmailFields = {
    input: 'jane@slow.example',
    valid_syntax: true,
    mx_found: false,
    disposable: false,
    role_based: false,
    free_provider: false,
    did_you_mean: null,
    deliverability: 'unknown',
    score: 60,
  };

  void it('a failed lookup adds no email_no_mx points and earns no clean credit', () => {
    const failed = scoreFraud({ email: unanswered, emailDns: 'failed' });
    assert.deepEqual(
      failed.reasons.map((r) => [r.code, r.points]),
      [['email_dns_unavailable', 0]],
    );
    assert.equal(failed.fraud_score, FRAUD_BASE);
    const answered = scoreFraud({ email: unanswered, emailDns: 'answered' });
    assert.ok(answered.reasons.some((r) => r.code === 'email_no_mx' && r.points === 15));
  });

  void it('a special-use name keeps its risk points and says why', () => {
    const special = scoreFraud({
      email: { ...unanswered, input: 'x@hidden.onion', deliverability: 'undeliverable', score: 0 },
      emailDns: 'special_use',
    });
    const codes = special.reasons.map((r) => r.code);
    assert.ok(codes.includes('email_no_mx') && codes.includes('email_undeliverable'));
    assert.ok(codes.includes('email_special_use_domain'));
  });
});
