// The combined fraud model as data: every rule, its weight, the base and the risk thresholds.
// docs/models/verify.md is the prose version of this file; fraud.rules.spec.ts keeps them in sync.
//
// Why the shape guarantees the properties (the proofs are in the doc):
// - a risk rule gives 0..weight points and its points never fall when an input gets riskier;
// - a credit is paid only while its result fires no risk rule, so getting riskier can only
//   remove credit, never add it;
// - a cross rule whose own side can be clean weighs no more than that side's clean credit,
//   so adding a clean result costs at most what its credit pays back.
import type { EmailFields, IpFields, PhoneFields } from '@verity/contracts';
import type { FraudInput, FraudReasonCode, SignalFields, SignalKind } from './fraud.types';

/** Score before any rule: the prior for a request about which nothing is known. */
export const FRAUD_BASE = 40;

/** fraud_score below `medium` is low, below `high` is medium, anything else is high. */
export const RISK_THRESHOLDS = { medium: 30, high: 60 } as const;

/** A rule that reads one result; `points` is within [0, weight] and non-decreasing in risk. */
export interface SignalRule<T> {
  code: FraudReasonCode;
  description: string;
  weight: number;
  points: (fields: T) => number;
}

/** Credit paid only when its result fired no risk rule; `when` may only get stricter with risk. */
export interface CreditRule<T> {
  code: FraudReasonCode;
  description: string;
  credit: number;
  when: (fields: T) => boolean;
}

/**
 * A 0-point line of the explanation: a check that could not run or was not needed. It
 * withholds the rules it names (no evidence either way) and the result's clean credit (the
 * result did not pass every check).
 */
export interface NoteRule {
  code: FraudReasonCode;
  description: string;
  withholds: readonly FraudReasonCode[];
  when: (input: FraudInput) => boolean;
}

/** A rule that reads two results; it is evaluated only when both were supplied. */
export interface CrossRule {
  code: FraudReasonCode;
  description: string;
  weight: number;
  involves: readonly [SignalKind, SignalKind];
  /** Sides that must fire a risk rule of their own for this rule to apply (see property 3). */
  requiresRisk: readonly SignalKind[];
  applies: (input: FraudInput) => boolean;
}

// Engines promise integers in 0..100; anything else is read as the worst value (fail closed).
const quality = (score: number): number =>
  Number.isFinite(score) ? Math.min(100, Math.max(0, score)) : 0;
const abuse = (score: number): number =>
  Number.isFinite(score) ? Math.min(100, Math.max(0, score)) : 100;
const stepsBelow = (value: number, threshold: number, step: number): number =>
  Math.ceil(Math.max(0, threshold - value) / step);
const stepsAbove = (value: number, threshold: number, step: number): number =>
  Math.ceil(Math.max(0, value - threshold) / step);

function flag<T>(
  code: FraudReasonCode,
  weight: number,
  description: string,
  when: (fields: T) => boolean,
): SignalRule<T> {
  return { code, weight, description, points: (fields) => (when(fields) ? weight : 0) };
}

function graded<T>(
  code: FraudReasonCode,
  weight: number,
  description: string,
  steps: (fields: T) => number,
): SignalRule<T> {
  return { code, weight, description, points: (fields) => Math.min(weight, steps(fields)) };
}

function cross<A extends SignalKind, B extends SignalKind>(spec: {
  code: FraudReasonCode;
  weight: number;
  description: string;
  involves: readonly [A, B];
  requiresRisk: readonly SignalKind[];
  when: (a: SignalFields[A], b: SignalFields[B]) => boolean;
}): CrossRule {
  const { when, ...rest } = spec;
  return {
    ...rest,
    applies: (input) => {
      const results: Partial<SignalFields> = input;
      const a = results[spec.involves[0]];
      const b = results[spec.involves[1]];
      return a !== undefined && b !== undefined && when(a, b);
    },
  };
}

/** Any of the IP flags that hide who is behind the address (datacenter excluded). */
const anonymizer = (ip: IpFields): boolean => ip.tor || ip.proxy || ip.vpn;
const country = (code: string | null): string | null => code?.trim().toUpperCase() || null;

/** Email risk rules; deliverability levels are exclusive with points rising risky < undeliverable. */
export const EMAIL_RULES: readonly SignalRule<EmailFields>[] = [
  flag('email_invalid_syntax', 20, 'Address syntax is invalid (RFC 5321)', (e) => !e.valid_syntax),
  flag('email_no_mx', 15, 'Domain has no mail exchanger', (e) => !e.mx_found),
  flag('email_disposable', 25, 'Disposable or throwaway email provider', (e) => e.disposable),
  flag('email_role_based', 5, 'Role address rather than a person', (e) => e.role_based),
  flag(
    'email_typo_suggested',
    8,
    'Address looks like a typo of another',
    (e) => e.did_you_mean !== null,
  ),
  flag(
    'email_deliverability_risky',
    10,
    'Mailbox deliverability is risky',
    (e) => e.deliverability === 'risky',
  ),
  flag(
    'email_undeliverable',
    25,
    'Mailbox is undeliverable',
    (e) => e.deliverability === 'undeliverable',
  ),
  graded('email_low_score', 10, 'Email quality score below 50 (1 point per 5 below)', (e) =>
    stepsBelow(quality(e.score), 50, 5),
  ),
];

/** Phone risk rules; line types are exclusive with points rising voip < premium. */
export const PHONE_RULES: readonly SignalRule<PhoneFields>[] = [
  flag('phone_invalid', 25, 'Phone number is not valid', (p) => !p.valid),
  flag('phone_voip', 15, 'VoIP line, cheap to obtain in bulk', (p) => p.line_type === 'voip'),
  flag('phone_premium', 25, 'Premium-rate line', (p) => p.line_type === 'premium'),
  flag(
    'phone_hlr_inactive',
    25,
    'HLR reports the subscriber inactive',
    (p) => p.hlr?.status === 'inactive',
  ),
  graded('phone_low_score', 10, 'Phone quality score below 40 (1 point per 4 below)', (p) =>
    stepsBelow(quality(p.score), 40, 4),
  ),
];

/** IP risk rules; the flags add up because each is separate evidence. */
export const IP_RULES: readonly SignalRule<IpFields>[] = [
  flag('ip_tor', 30, 'Tor exit node', (i) => i.tor),
  flag('ip_proxy', 20, 'Open HTTP or SOCKS proxy', (i) => i.proxy),
  flag('ip_vpn', 15, 'VPN exit node', (i) => i.vpn),
  flag(
    'ip_datacenter',
    10,
    'Datacenter or cloud address, not a consumer line',
    (i) => i.datacenter,
  ),
  graded('ip_abuse', 20, 'Abuse score above 20 (1 point per 4 above)', (i) =>
    stepsAbove(abuse(i.abuse_score), 20, 4),
  ),
];

/** Email notes: how the DNS evidence behind `mx_found` was (not) obtained. */
export const EMAIL_NOTES: readonly NoteRule[] = [
  {
    code: 'email_dns_unavailable',
    description: 'DNS lookup failed (timeout or SERVFAIL): no evidence about the mail exchanger',
    withholds: ['email_no_mx'],
    when: (i) => i.emailDns === 'failed',
  },
  {
    code: 'email_dns_test_key',
    description: 'Test key: no DNS lookup is made, so no evidence about the mail exchanger',
    withholds: ['email_no_mx'],
    when: (i) => i.emailDns === 'test_key',
  },
  {
    code: 'email_special_use_domain',
    description: 'Special-use domain that takes no Internet mail (RFC 6761, 6762, 7686)',
    withholds: [],
    when: (i) => i.emailDns === 'special_use',
  },
];

/** Credits for results that fired no risk rule of their own. */
export const EMAIL_CREDITS: readonly CreditRule<EmailFields>[] = [
  { code: 'email_clean', credit: 15, description: 'Email passed every check', when: () => true },
  {
    code: 'email_deliverable',
    credit: 5,
    description: 'Mailbox confirmed deliverable',
    when: (e) => e.deliverability === 'deliverable',
  },
];

export const PHONE_CREDITS: readonly CreditRule<PhoneFields>[] = [
  { code: 'phone_clean', credit: 15, description: 'Phone passed every check', when: () => true },
  {
    code: 'phone_hlr_active',
    credit: 8,
    description: 'HLR confirms a live subscriber',
    when: (p) => p.hlr?.status === 'active',
  },
];

export const IP_CREDITS: readonly CreditRule<IpFields>[] = [
  { code: 'ip_clean', credit: 15, description: 'IP passed every check', when: () => true },
];

/** Rules that combine two results; weights of rules with a clean side stay ≤ that side's credit. */
export const CROSS_RULES: readonly CrossRule[] = [
  cross({
    code: 'cross_country_mismatch',
    weight: 15,
    description: 'Phone country differs from IP country',
    involves: ['phone', 'ip'],
    requiresRisk: [],
    when: (p, i) => {
      const pc = country(p.country);
      const ic = country(i.country);
      return pc !== null && ic !== null && pc !== ic;
    },
  }),
  cross({
    code: 'cross_disposable_email_anonymous_ip',
    weight: 15,
    description: 'Disposable email used from a datacenter, VPN, proxy or Tor address',
    involves: ['email', 'ip'],
    requiresRisk: ['email', 'ip'],
    when: (e, i) => e.disposable && (anonymizer(i) || i.datacenter),
  }),
  cross({
    code: 'cross_invalid_phone_free_email',
    weight: 10,
    description: 'Invalid phone paired with a free-provider email',
    involves: ['phone', 'email'],
    requiresRisk: ['phone'],
    when: (p, e) => !p.valid && e.free_provider,
  }),
  cross({
    code: 'cross_voip_phone_anonymous_ip',
    weight: 10,
    description: 'VoIP or premium phone used from a VPN, proxy or Tor address',
    involves: ['phone', 'ip'],
    requiresRisk: ['phone', 'ip'],
    when: (p, i) => (p.line_type === 'voip' || p.line_type === 'premium') && anonymizer(i),
  }),
  cross({
    code: 'cross_no_reachable_contact',
    weight: 10,
    description: 'Neither the email nor the phone can reach anyone',
    involves: ['email', 'phone'],
    requiresRisk: ['email', 'phone'],
    when: (e, p) => e.deliverability === 'undeliverable' && !p.valid,
  }),
];
