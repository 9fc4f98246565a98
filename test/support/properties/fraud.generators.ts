// Seeded random engine results for the fraud model's property tests (no dependency: a failing
// case is reproduced from the seed printed by the test). Test support, from @verity/testing.
import type {
  Deliverability,
  EmailFields,
  HlrResult,
  IpFields,
  LineType,
  PhoneFields,
} from '@verity/contracts';
import type { FraudInput, SignalKind } from '@verity/validation';
import { SeededRandom } from '../seeded-random';

/** The seeded PRNG with the helpers the generators need. */
export class Rng extends SeededRandom {
  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  bool(pTrue = 0.5): boolean {
    return this.next() < pTrue;
  }
}

// Lower-case and padded codes check that country comparison is normalised.
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'de', ' us', null] as const;
const DELIVERABILITIES: readonly Deliverability[] = [
  'deliverable',
  'risky',
  'undeliverable',
  'unknown',
];
const LINE_TYPES: readonly LineType[] = ['mobile', 'landline', 'voip', 'premium', 'unknown'];

/** Risk order of the enum values: a higher rank is riskier, equal ranks are equally risky. */
export const DELIVERABILITY_RANK: Record<Deliverability, number> = {
  deliverable: 0,
  unknown: 1,
  risky: 2,
  undeliverable: 3,
};
export const LINE_TYPE_RANK: Record<LineType, number> = {
  mobile: 0,
  landline: 0,
  unknown: 0,
  voip: 1,
  premium: 2,
};
type HlrStatusOrNone = HlrResult['status'] | 'none';
export const HLR_RANK: Record<HlrStatusOrNone, number> = {
  active: 0,
  none: 1,
  unavailable: 1,
  inactive: 2,
};

const hlrOf = (r: Rng, status: HlrStatusOrNone): HlrResult | null =>
  status === 'none'
    ? null
    : { status, ported: r.pick([true, false, null]), roaming: r.pick([true, false, null]) };

/** Any email result, risky or not. */
export function anyEmail(r: Rng): EmailFields {
  return {
    input: 'someone@example.com',
    valid_syntax: r.bool(0.8),
    mx_found: r.bool(0.8),
    disposable: r.bool(0.3),
    role_based: r.bool(0.3),
    free_provider: r.bool(0.5),
    did_you_mean: r.bool(0.2) ? 'someone@gmail.com' : null,
    deliverability: r.pick(DELIVERABILITIES),
    score: r.int(0, 100),
  };
}

/** Any phone result, risky or not. */
export function anyPhone(r: Rng): PhoneFields {
  return {
    input: '+14155550100',
    valid: r.bool(0.8),
    e164: '+14155550100',
    country: r.pick(COUNTRIES),
    line_type: r.pick(LINE_TYPES),
    carrier: null,
    hlr: hlrOf(r, r.pick(['none', 'active', 'inactive', 'unavailable'] as const)),
    score: r.int(0, 100),
  };
}

/** Any IP result, risky or not. */
export function anyIp(r: Rng): IpFields {
  return {
    input: '192.0.2.1',
    country: r.pick(COUNTRIES),
    city: null,
    asn: 64500,
    asn_org: 'Example',
    vpn: r.bool(0.25),
    proxy: r.bool(0.25),
    tor: r.bool(0.2),
    datacenter: r.bool(0.3),
    abuse_score: r.int(0, 100),
  };
}

/** A clean email: passes every check; free_provider and the typo-free address vary. */
export function cleanEmail(r: Rng): EmailFields {
  return {
    ...anyEmail(r),
    valid_syntax: true,
    mx_found: true,
    disposable: false,
    role_based: false,
    did_you_mean: null,
    deliverability: r.pick(['deliverable', 'unknown'] as const),
    score: r.int(50, 100),
  };
}

/** A clean phone: valid, ordinary line, not inactive; its country is any (may mismatch the IP). */
export function cleanPhone(r: Rng): PhoneFields {
  return {
    ...anyPhone(r),
    valid: true,
    line_type: r.pick(['mobile', 'landline', 'unknown'] as const),
    hlr: hlrOf(r, r.pick(['none', 'active', 'unavailable'] as const)),
    score: r.int(40, 100),
  };
}

/** A clean IP: no anonymity flag, low abuse score; its country is any (may mismatch the phone). */
export function cleanIp(r: Rng): IpFields {
  return {
    ...anyIp(r),
    vpn: false,
    proxy: false,
    tor: false,
    datacenter: false,
    abuse_score: r.int(0, 20),
  };
}

/** A request with each result present with probability `p`. */
export function anyInput(r: Rng, p = 0.6): FraudInput {
  const input: FraudInput = {};
  if (r.bool(p)) input.email = anyEmail(r);
  if (r.bool(p)) input.phone = anyPhone(r);
  if (r.bool(p)) input.ip = anyIp(r);
  return input;
}

/** A generator of clean results per signal kind. */
export const CLEAN: { [K in SignalKind]: (r: Rng) => NonNullable<FraudInput[K]> } = {
  email: cleanEmail,
  phone: cleanPhone,
  ip: cleanIp,
};

/** A named change that makes one field of a request riskier (or equally risky), all else equal. */
export interface Worsening {
  name: string;
  apply: (input: FraudInput, r: Rng) => FraudInput | null;
}

const riskierOrEqual = <T extends string>(
  rank: Record<T, number>,
  current: T,
  r: Rng,
): T | null => {
  const options = (Object.keys(rank) as T[]).filter(
    (v) => v !== current && rank[v] >= rank[current],
  );
  return options.length === 0 ? null : r.pick(options);
};

function onEmail(name: string, f: (e: EmailFields, r: Rng) => EmailFields | null): Worsening {
  return {
    name,
    apply: (input, r) => {
      const next = input.email && f(input.email, r);
      return next ? { ...input, email: next } : null;
    },
  };
}
function onPhone(name: string, f: (p: PhoneFields, r: Rng) => PhoneFields | null): Worsening {
  return {
    name,
    apply: (input, r) => {
      const next = input.phone && f(input.phone, r);
      return next ? { ...input, phone: next } : null;
    },
  };
}
function onIp(name: string, f: (i: IpFields, r: Rng) => IpFields | null): Worsening {
  return {
    name,
    apply: (input, r) => {
      const next = input.ip && f(input.ip, r);
      return next ? { ...input, ip: next } : null;
    },
  };
}

/** Every way a single field can get riskier; each returns null when the field is already worst. */
export const WORSENINGS: readonly Worsening[] = [
  onEmail('email.valid_syntax', (e) => (e.valid_syntax ? { ...e, valid_syntax: false } : null)),
  onEmail('email.mx_found', (e) => (e.mx_found ? { ...e, mx_found: false } : null)),
  onEmail('email.disposable', (e) => (e.disposable ? null : { ...e, disposable: true })),
  onEmail('email.role_based', (e) => (e.role_based ? null : { ...e, role_based: true })),
  onEmail('email.free_provider', (e) => (e.free_provider ? null : { ...e, free_provider: true })),
  onEmail('email.did_you_mean', (e) =>
    e.did_you_mean === null ? { ...e, did_you_mean: 'someone@gmail.com' } : null,
  ),
  onEmail('email.deliverability', (e, r) => {
    const d = riskierOrEqual(DELIVERABILITY_RANK, e.deliverability, r);
    return d === null ? null : { ...e, deliverability: d };
  }),
  onEmail('email.score', (e, r) => (e.score > 0 ? { ...e, score: r.int(0, e.score - 1) } : null)),
  onPhone('phone.valid', (p) => (p.valid ? { ...p, valid: false } : null)),
  onPhone('phone.line_type', (p, r) => {
    const t = riskierOrEqual(LINE_TYPE_RANK, p.line_type, r);
    return t === null ? null : { ...p, line_type: t };
  }),
  onPhone('phone.hlr', (p, r) => {
    const s = riskierOrEqual(HLR_RANK, p.hlr?.status ?? 'none', r);
    if (s === null) return null;
    if (s === 'none') return { ...p, hlr: null };
    return {
      ...p,
      hlr: { status: s, ported: p.hlr?.ported ?? null, roaming: p.hlr?.roaming ?? null },
    };
  }),
  onPhone('phone.score', (p, r) => (p.score > 0 ? { ...p, score: r.int(0, p.score - 1) } : null)),
  onIp('ip.tor', (i) => (i.tor ? null : { ...i, tor: true })),
  onIp('ip.proxy', (i) => (i.proxy ? null : { ...i, proxy: true })),
  onIp('ip.vpn', (i) => (i.vpn ? null : { ...i, vpn: true })),
  onIp('ip.datacenter', (i) => (i.datacenter ? null : { ...i, datacenter: true })),
  onIp('ip.abuse_score', (i, r) =>
    i.abuse_score < 100 ? { ...i, abuse_score: r.int(i.abuse_score + 1, 100) } : null,
  ),
];
