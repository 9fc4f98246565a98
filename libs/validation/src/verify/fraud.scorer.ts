// Evaluates the rule table of fraud.rules.ts. Pure and synchronous: no I/O, no clock, no randomness.
import type { RiskLevel } from '@verity/contracts';
import {
  CROSS_RULES,
  EMAIL_CREDITS,
  EMAIL_NOTES,
  EMAIL_RULES,
  FRAUD_BASE,
  IP_CREDITS,
  IP_RULES,
  PHONE_CREDITS,
  PHONE_RULES,
  RISK_THRESHOLDS,
  type CreditRule,
  type NoteRule,
  type SignalRule,
} from './fraud.rules';
import type { FraudInput, FraudReason, FraudScore, SignalKind } from './fraud.types';
import { HISTORY_CREDITS, HISTORY_RULES } from './history.rules';
import type { FraudHistory } from './history.types';

const NO_HISTORY: FraudHistory = Object.freeze({});

/** Maps a fraud_score to its risk level: low < 30 ≤ medium < 60 ≤ high (non-numbers are high). */
export function riskFor(score: number): RiskLevel {
  if (score < RISK_THRESHOLDS.medium) return 'low';
  if (score < RISK_THRESHOLDS.high) return 'medium';
  return 'high';
}

/** Combined fraud score of whichever results were supplied, with the reasons that make it up. */
export function scoreFraud(input: FraudInput): FraudScore {
  const history = input.history ?? NO_HISTORY;
  const reasons: FraudReason[] = [
    ...signalReasons('email', input.email, EMAIL_RULES, EMAIL_CREDITS, notesOf(input), history),
    ...signalReasons('phone', input.phone, PHONE_RULES, PHONE_CREDITS, [], history),
    ...signalReasons('ip', input.ip, IP_RULES, IP_CREDITS, [], history),
  ];
  for (const rule of CROSS_RULES) {
    if (rule.applies(input)) {
      reasons.push({
        code: rule.code,
        description: rule.description,
        points: rule.weight,
        signal: 'cross',
      });
    }
  }
  // Risks before credits, each largest first; Array.prototype.sort is stable, so ties keep table order.
  reasons.sort(
    (a, b) =>
      Number(b.points > 0) - Number(a.points > 0) || Math.abs(b.points) - Math.abs(a.points),
  );
  const fraud_score = clampScore(FRAUD_BASE + reasons.reduce((sum, r) => sum + r.points, 0));
  return { fraud_score, risk: riskFor(fraud_score), reasons };
}

function notesOf(input: FraudInput): readonly NoteRule[] {
  if (input.email === undefined || input.emailDns === undefined) return [];
  return EMAIL_NOTES.filter((note) => note.when(input));
}

function signalReasons<T>(
  signal: SignalKind,
  fields: T | undefined,
  rules: readonly SignalRule<T>[],
  credits: readonly CreditRule<T>[],
  notes: readonly NoteRule[],
  history: FraudHistory,
): FraudReason[] {
  if (fields === undefined) return [];
  const risks: FraudReason[] = [];
  for (const rule of rules) {
    if (notes.some((note) => note.withholds.includes(rule.code))) continue;
    const points = rule.points(fields);
    if (points > 0) risks.push({ code: rule.code, description: rule.description, points, signal });
  }
  for (const rule of HISTORY_RULES[signal]) {
    const points = rule.points(history);
    if (points > 0)
      risks.push({ code: rule.code, description: rule.explain(history), points, signal });
  }
  for (const note of notes) {
    risks.push({ code: note.code, description: note.description, points: 0, signal });
  }
  if (risks.length > 0) return risks;
  const paid: FraudReason[] = [];
  for (const credit of credits) {
    if (credit.when(fields))
      paid.push({
        code: credit.code,
        description: credit.description,
        points: -credit.credit,
        signal,
      });
  }
  for (const credit of HISTORY_CREDITS[signal]) {
    if (credit.when(history))
      paid.push({
        code: credit.code,
        description: credit.description,
        points: -credit.credit,
        signal,
      });
  }
  return paid;
}

function clampScore(raw: number): number {
  return Math.min(100, Math.max(0, Math.round(raw)));
}
