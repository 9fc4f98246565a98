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
import type {
  FraudHistory,
  FraudInput,
  HistoryValueKind,
  SignalKind,
  ValueHistory,
} from '@verity/validation';
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

const DAY_MS = 24 * 3600 * 1000;
const WEIGHTS = [0, 0, 0.3, 0.5, 1, 1.7, 4] as const;

/** Any history of one value: counts nest (1 h ≤ 24 h ≤ 30 d), weights of any size. */
export function anyValueHistory(r: Rng, linked: boolean): ValueHistory {
  const h1 = r.int(1, 6);
  const h24 = h1 + r.int(0, 8);
  return {
    linked: linked ? { h1, h24, d30: h24 + r.int(0, 10) } : null,
    firstSeenAgoMs: r.pick([0, r.int(0, DAY_MS), r.int(0, 40 * DAY_MS)]),
    calls: r.int(1, 40),
    reported: { fraud: r.pick(WEIGHTS), legitimate: r.pick(WEIGHTS) },
  };
}

/** A history that fires no history rule: few links, no net fraud report; maybe vouched or old. */
export function cleanValueHistory(r: Rng, linked: boolean): ValueHistory {
  const legitimate = r.pick([0, 0, 1, 2.5]);
  return {
    linked: linked ? { h1: r.int(1, 2), h24: 2, d30: r.int(2, 4) } : null,
    firstSeenAgoMs: r.pick([0, r.int(0, 40 * DAY_MS)]),
    calls: r.int(1, 5),
    reported: { fraud: legitimate > 0 ? r.pick([0, legitimate / 2]) : 0, legitimate },
  };
}

/** The values whose history each signal's rules read. */
export const HISTORY_KINDS: { [K in SignalKind]: readonly HistoryValueKind[] } = {
  email: ['email'],
  phone: ['phone'],
  ip: ['ip', 'subnet'],
};

/** A history for whichever results `input` carries, each value present with probability `p`. */
export function anyHistory(r: Rng, input: FraudInput, p = 0.7): FraudHistory {
  const history: FraudHistory = {};
  for (const signal of ['email', 'phone', 'ip'] as const) {
    if (input[signal] === undefined) continue;
    for (const kind of HISTORY_KINDS[signal]) {
      if (r.bool(p)) history[kind] = anyValueHistory(r, kind !== 'email');
    }
  }
  return history;
}

/** A clean history for the values of one signal (what adding a clean result may bring). */
export function cleanHistoryFor(r: Rng, signal: SignalKind): FraudHistory {
  const history: FraudHistory = {};
  for (const kind of HISTORY_KINDS[signal]) history[kind] = cleanValueHistory(r, kind !== 'email');
  return history;
}

/** A request with each result present with probability `p`, and half the time a history. */
export function anyInput(r: Rng, p = 0.6): FraudInput {
  const input: FraudInput = {};
  if (r.bool(p)) input.email = anyEmail(r);
  if (r.bool(p)) input.phone = anyPhone(r);
  if (r.bool(p)) input.ip = anyIp(r);
  if (r.bool(0.5)) input.history = anyHistory(r, input);
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

function onHistory(
  kind: HistoryValueKind,
  name: string,
  f: (v: ValueHistory, r: Rng) => ValueHistory | null,
): Worsening {
  return {
    name: `history.${kind}.${name}`,
    apply: (input, r) => {
      const value = input.history?.[kind];
      const next = value && f(value, r);
      return next ? { ...input, history: { ...input.history, [kind]: next } } : null;
    },
  };
}

/** More distinct emails in `window` (and so at least as many in the longer windows). */
const moreLinked = (window: 'h1' | 'h24' | 'd30') => (v: ValueHistory, r: Rng) => {
  if (v.linked === null) return null;
  const n = v.linked[window] + r.int(1, 10);
  const { h1, h24, d30 } = v.linked;
  return {
    ...v,
    linked:
      window === 'h1'
        ? { h1: n, h24: Math.max(h24, n), d30: Math.max(d30, n) }
        : window === 'h24'
          ? { h1, h24: n, d30: Math.max(d30, n) }
          : { h1, h24, d30: n },
  };
};

type HistoryField = 'h1' | 'h24' | 'd30' | 'fraud' | 'legitimate' | 'firstSeenAgoMs';

/** The history fields some rule reads, per value (a worsening of any other could not raise the score). */
const READ: Record<HistoryValueKind, readonly HistoryField[]> = {
  email: ['fraud', 'legitimate', 'firstSeenAgoMs'],
  phone: ['h1', 'h24', 'd30', 'fraud', 'legitimate', 'firstSeenAgoMs'],
  ip: ['h1', 'h24', 'fraud', 'legitimate'],
  subnet: ['h1', 'fraud', 'legitimate'],
};

const HISTORY_WORSENING: Record<HistoryField, (v: ValueHistory, r: Rng) => ValueHistory | null> = {
  h1: moreLinked('h1'),
  h24: moreLinked('h24'),
  d30: moreLinked('d30'),
  fraud: (v, r) => ({
    ...v,
    reported: { ...v.reported, fraud: v.reported.fraud + r.pick([0.2, 0.5, 1, 3]) },
  }),
  legitimate: (v, r) =>
    v.reported.legitimate > 0
      ? { ...v, reported: { ...v.reported, legitimate: v.reported.legitimate * r.next() } }
      : null,
  firstSeenAgoMs: (v, r) =>
    v.firstSeenAgoMs > 0 ? { ...v, firstSeenAgoMs: r.int(0, v.firstSeenAgoMs - 1) } : null,
};

const historyWorsenings = (kind: HistoryValueKind): Worsening[] =>
  READ[kind].map((field) => onHistory(kind, field, HISTORY_WORSENING[field]));

/** Every way a single field can get riskier; each returns null when the field is already worst. */
export const WORSENINGS: readonly Worsening[] = [
  ...(['email', 'phone', 'ip', 'subnet'] as const).flatMap(historyWorsenings),
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
