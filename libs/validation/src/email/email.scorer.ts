import type { Deliverability } from '@verity/contracts';
import type { MxLookup, SmtpProbeResult } from './email.ports';

/** Everything the deliverability model looks at (docs/models/email.md). */
export interface EmailSignals {
  validSyntax: boolean;
  /** Null when syntax is invalid (no lookup is made). */
  mx: MxLookup | null;
  /** Null when the probe is off or was not run. */
  smtp: SmtpProbeResult | null;
  disposable: boolean;
  roleBased: boolean;
  freeProvider: boolean;
  typoSuggested: boolean;
}

/** Score penalties, subtracted from 100. */
export const SCORE_WEIGHTS = {
  disposable: 60,
  typo: 40,
  dnsUnknown: 40,
  catchAll: 30,
  smtpUnknown: 20,
  implicitMx: 25,
  roleBased: 25,
  freeProvider: 5,
} as const;

/** Each verdict's score band [min, max]; the raw score is clamped into it. */
export const SCORE_BANDS: Readonly<Record<Deliverability, readonly [number, number]>> = {
  deliverable: [70, 100],
  risky: [20, 69],
  unknown: [20, 60],
  undeliverable: [0, 10],
};

function verdictOf(s: EmailSignals): Deliverability {
  if (!s.validSyntax || s.mx === null) return 'undeliverable';
  if (s.mx.kind === 'null_mx' || s.mx.kind === 'no_mail') return 'undeliverable';
  if (s.smtp?.verdict === 'undeliverable') return 'undeliverable';
  const catchAll = s.smtp?.catchAll === true;
  if (s.disposable || s.roleBased || s.typoSuggested || catchAll || s.mx.kind === 'implicit') {
    return 'risky';
  }
  if (s.mx.kind === 'unknown' || s.smtp?.verdict === 'unknown') return 'unknown';
  return 'deliverable';
}

function rawScore(s: EmailSignals): number {
  let score = 100;
  if (s.disposable) score -= SCORE_WEIGHTS.disposable;
  if (s.typoSuggested) score -= SCORE_WEIGHTS.typo;
  if (s.roleBased) score -= SCORE_WEIGHTS.roleBased;
  if (s.freeProvider) score -= SCORE_WEIGHTS.freeProvider;
  if (s.mx?.kind === 'unknown') score -= SCORE_WEIGHTS.dnsUnknown;
  if (s.mx?.kind === 'implicit') score -= SCORE_WEIGHTS.implicitMx;
  if (s.smtp?.catchAll === true) score -= SCORE_WEIGHTS.catchAll;
  if (s.smtp?.verdict === 'unknown') score -= SCORE_WEIGHTS.smtpUnknown;
  return score;
}

/** Deliverability verdict and 0–100 quality score of one address. */
export function scoreEmail(s: EmailSignals): { deliverability: Deliverability; score: number } {
  const deliverability = verdictOf(s);
  if (!s.validSyntax) return { deliverability, score: 0 };
  const [min, max] = SCORE_BANDS[deliverability];
  return { deliverability, score: Math.min(max, Math.max(min, rawScore(s))) };
}
