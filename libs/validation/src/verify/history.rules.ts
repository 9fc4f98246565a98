// The history rules of the fraud model: what the account's own traffic (velocity) and its
// reported outcomes add to a signal. docs/models/verify.md, "History rules", is the prose version;
// fraud.rules.spec.ts keeps the two in sync.
//
// They keep the model's properties the way the static rules do:
// - a risk rule gives 0..weight and never falls as a count grows, a fraud report is added or
//   a legitimate report is taken away;
// - a value whose reports say legitimate (`vouched`) withholds the velocity of that value (and
//   of its /24), never anything else, so losing a legitimate report can only add points;
// - credits are paid only while the signal fires no risk rule, for the best values only.
import type { FraudReasonCode, SignalKind } from './fraud.types';
import type { FraudHistory, ValueHistory } from './history.types';

/** A risk rule on the history of one signal's values; `points` is within [0, weight]. */
export interface HistoryRule {
  code: FraudReasonCode;
  description: string;
  weight: number;
  points: (history: FraudHistory) => number;
  /** The description with this call's figures, for `?explain=true`. */
  explain: (history: FraudHistory) => string;
}

/** A credit on the history of one signal's values, paid only when that signal is clean. */
export interface HistoryCredit {
  code: FraudReasonCode;
  description: string;
  credit: number;
  when: (history: FraudHistory) => boolean;
}

/** A value is vouched for when its legitimate reports outweigh its fraud reports by this much. */
export const VOUCHED_MARGIN = 0.5;
/** A value first seen this long ago earns the established credit. */
export const ESTABLISHED_AFTER_MS = 7 * 24 * 3600 * 1000;

// Counts and weights come from a store; anything that is not a finite number is read as the
// worst value (fail closed), as the engine scores are.
const count = (n: number): number => (Number.isFinite(n) ? Math.max(0, n) : Infinity);
const fraudWeight = (v: ValueHistory): number =>
  Number.isFinite(v.reported.fraud) ? Math.max(0, v.reported.fraud) : Infinity;
const legitimateWeight = (v: ValueHistory): number =>
  Number.isFinite(v.reported.legitimate) ? Math.max(0, v.reported.legitimate) : 0;

/** Reports outweigh toward legitimate by at least VOUCHED_MARGIN. */
export function vouched(v: ValueHistory | undefined): boolean {
  return v !== undefined && legitimateWeight(v) - fraudWeight(v) >= VOUCHED_MARGIN;
}

/** Net fraud weight in [0, 1]: a fresh report with none against it is 1. */
function netFraud(v: ValueHistory | undefined): number {
  if (v === undefined) return 0;
  const net = fraudWeight(v) - legitimateWeight(v);
  return Number.isNaN(net) ? 1 : Math.min(1, Math.max(0, net));
}

const round1 = (x: number): string =>
  Number.isFinite(x) ? String(Math.round(x * 10) / 10) : x > 0 ? 'many' : '0';

/** `perStep` points for each distinct email beyond `free`, capped by `weight`. */
function velocity(spec: {
  code: FraudReasonCode;
  weight: number;
  free: number;
  perStep: number;
  description: string;
  counts: (h: FraudHistory) => number | undefined;
  /** Vouching that withholds the rule. */
  withheldBy: (h: FraudHistory) => boolean;
  /** "from this IP address in the last hour" */
  where: string;
}): HistoryRule {
  const points = (h: FraudHistory): number => {
    const n = spec.counts(h);
    if (n === undefined || spec.withheldBy(h)) return 0;
    return Math.min(spec.weight, spec.perStep * Math.max(0, count(n) - spec.free));
  };
  return {
    code: spec.code,
    weight: spec.weight,
    description: spec.description,
    points,
    explain: (h) =>
      `${round1(spec.counts(h) ?? 0)} distinct emails ${spec.where} (${spec.perStep} points each beyond ${spec.free})`,
  };
}

function reportedFraud(
  code: FraudReasonCode,
  weight: number,
  what: string,
  value: (h: FraudHistory) => ValueHistory | undefined,
  withheldBy: (h: FraudHistory) => boolean = () => false,
): HistoryRule {
  return {
    code,
    weight,
    description: `${what} reported as fraud by this account (weight halves every half-life)`,
    points: (h) => (withheldBy(h) ? 0 : Math.round(weight * netFraud(value(h)))),
    explain: (h) => {
      const v = value(h);
      return `${what} reported as fraud: net report weight ${round1(v ? fraudWeight(v) - legitimateWeight(v) : 0)} (1 = one fresh report)`;
    },
  };
}

const linked =
  (kind: 'ip' | 'subnet' | 'phone', window: 'h1' | 'h24' | 'd30') =>
  (h: FraudHistory): number | undefined =>
    h[kind]?.linked?.[window];

const established = (v: ValueHistory | undefined): boolean =>
  v !== undefined && v.firstSeenAgoMs >= ESTABLISHED_AFTER_MS;

const ipVouched = (h: FraudHistory) => vouched(h.ip);
const subnetVouched = (h: FraudHistory) => vouched(h.ip) || vouched(h.subnet);

/** History risk rules per signal. */
export const HISTORY_RULES: Readonly<Record<SignalKind, readonly HistoryRule[]>> = {
  email: [reportedFraud('email_reported_fraud', 40, 'Email address', (h) => h.email)],
  phone: [
    velocity({
      code: 'phone_shared_24h',
      weight: 30,
      free: 2,
      perStep: 10,
      description: 'Phone number used with more than 2 emails in the last 24 hours',
      counts: linked('phone', 'h24'),
      withheldBy: (h) => vouched(h.phone),
      where: 'used this phone number in the last 24 hours',
    }),
    velocity({
      code: 'phone_shared_30d',
      weight: 10,
      free: 4,
      perStep: 2,
      description: 'Phone number used with more than 4 emails in the last 30 days',
      counts: linked('phone', 'd30'),
      withheldBy: (h) => vouched(h.phone),
      where: 'used this phone number in the last 30 days',
    }),
    reportedFraud('phone_reported_fraud', 30, 'Phone number', (h) => h.phone),
  ],
  ip: [
    velocity({
      code: 'ip_velocity_1h',
      weight: 20,
      free: 2,
      perStep: 5,
      description: 'More than 2 emails from this IP address in the last hour',
      counts: linked('ip', 'h1'),
      withheldBy: ipVouched,
      where: 'from this IP address in the last hour',
    }),
    velocity({
      code: 'ip_velocity_24h',
      weight: 10,
      free: 9,
      perStep: 1,
      description: 'More than 9 emails from this IP address in the last 24 hours',
      counts: linked('ip', 'h24'),
      withheldBy: ipVouched,
      where: 'from this IP address in the last 24 hours',
    }),
    velocity({
      code: 'ip_subnet_velocity_1h',
      weight: 10,
      free: 4,
      perStep: 2,
      description: 'More than 4 emails from this /24 (IPv6: /64) in the last hour',
      counts: linked('subnet', 'h1'),
      withheldBy: subnetVouched,
      where: 'from this /24 (IPv6: /64) in the last hour',
    }),
    reportedFraud('ip_reported_fraud', 25, 'IP address', (h) => h.ip),
    reportedFraud(
      'ip_subnet_reported_fraud',
      10,
      'The /24 (/64) of this IP address',
      (h) => h.subnet,
      ipVouched,
    ),
  ],
};

/** History credits per signal: extra credit for a clean signal whose values the account knows. */
export const HISTORY_CREDITS: Readonly<Record<SignalKind, readonly HistoryCredit[]>> = {
  email: [
    {
      code: 'email_reported_legitimate',
      credit: 10,
      description: 'Email address reported legitimate by this account',
      when: (h) => vouched(h.email),
    },
    {
      code: 'email_established',
      credit: 5,
      description: 'Email address first sent by this account at least 7 days ago',
      when: (h) => established(h.email),
    },
  ],
  phone: [
    {
      code: 'phone_reported_legitimate',
      credit: 10,
      description: 'Phone number reported legitimate by this account',
      when: (h) => vouched(h.phone),
    },
    {
      code: 'phone_established',
      credit: 5,
      description: 'Phone number first sent by this account at least 7 days ago',
      when: (h) => established(h.phone),
    },
  ],
  ip: [
    {
      code: 'ip_reported_legitimate',
      credit: 10,
      description: 'IP address reported legitimate by this account',
      when: (h) => vouched(h.ip),
    },
  ],
};

/** Codes of the history rules and credits: the reasons that come from the account's history. */
export const HISTORY_REASON_CODES: ReadonlySet<FraudReasonCode> = new Set(
  (['email', 'phone', 'ip'] as const).flatMap((signal) => [
    ...HISTORY_RULES[signal].map((rule) => rule.code),
    ...HISTORY_CREDITS[signal].map((credit) => credit.code),
  ]),
);
