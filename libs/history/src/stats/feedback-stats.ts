import type {
  FeedbackStats,
  KeyMode,
  ReasonStats,
  ReliabilityBand,
  RiskLevelStats,
} from '@verity/contracts';
import { RISK_LEVELS } from '@verity/contracts';
import { riskFor } from '@verity/validation';
import type { ReasonCount, ScoreCount } from '../db/verify-feedback.repository';

/**
 * Labels of each outcome before the figures are worth reading (docs/history.md, "What was
 * learned"): with 50 of each, an AUC near 0.9 is known within about ±0.06 (95 %).
 */
export const MIN_LABELS_PER_OUTCOME = 50;

/** The reliability picture's bands of fraud_score: 0–9, 10–19, …, 90–100. */
const BANDS: readonly [number, number][] = Array.from({ length: 10 }, (_, i) => [
  i * 10,
  i === 9 ? 100 : i * 10 + 9,
]);

/**
 * Chance that a fraud call scored above a legitimate one, ties counted half (the Mann–Whitney
 * statistic), exact from the counts per integer score; null without both outcomes.
 */
export function aucOf(scores: readonly ScoreCount[]): number | null {
  const fraud = new Array<number>(101).fill(0);
  const legitimate = new Array<number>(101).fill(0);
  for (const s of scores) (s.outcome === 'fraud' ? fraud : legitimate)[s.score] += s.calls;
  const positives = fraud.reduce((a, b) => a + b, 0);
  const negatives = legitimate.reduce((a, b) => a + b, 0);
  if (positives === 0 || negatives === 0) return null;
  let below = 0;
  let wins = 0;
  for (let score = 0; score <= 100; score++) {
    wins += fraud[score] * (below + legitimate[score] / 2);
    below += legitimate[score];
  }
  return wins / (positives * negatives);
}

function reliability(scores: readonly ScoreCount[]): ReliabilityBand[] {
  return BANDS.map(([min, max]) => {
    const inBand = scores.filter((s) => s.score >= min && s.score <= max);
    const calls = inBand.reduce((sum, s) => sum + s.calls, 0);
    const fraud = inBand.filter((s) => s.outcome === 'fraud').reduce((sum, s) => sum + s.calls, 0);
    const scoreSum = inBand.reduce((sum, s) => sum + s.score * s.calls, 0);
    return {
      min_score: min,
      max_score: max,
      calls,
      fraud,
      mean_score: calls === 0 ? null : scoreSum / calls,
      fraud_rate: calls === 0 ? null : fraud / calls,
    };
  });
}

function riskLevels(scores: readonly ScoreCount[]): RiskLevelStats[] {
  return RISK_LEVELS.map((risk) => {
    const at = scores.filter((s) => riskFor(s.score) === risk);
    const count = (outcome: 'fraud' | 'legitimate') =>
      at.filter((s) => s.outcome === outcome).reduce((sum, s) => sum + s.calls, 0);
    const fraud = count('fraud');
    const legitimate = count('legitimate');
    return { risk, calls: fraud + legitimate, fraud, legitimate };
  });
}

function reasons(counts: readonly ReasonCount[]): ReasonStats[] {
  const byReason = new Map<string, ReasonStats>();
  for (const c of counts) {
    const id = `${c.direction} ${c.code}`;
    const entry = byReason.get(id) ?? {
      code: c.code,
      direction: c.direction,
      calls: 0,
      fraud: 0,
      precision: 0,
    };
    entry.calls += c.calls;
    if (c.outcome === 'fraud') entry.fraud += c.calls;
    byReason.set(id, entry);
  }
  return [...byReason.values()]
    .map((r) => ({
      ...r,
      precision: (r.direction === 'risk' ? r.fraud : r.calls - r.fraud) / r.calls,
    }))
    .sort((a, b) => b.calls - a.calls || a.code.localeCompare(b.code));
}

/** GET /v1/feedback/stats from the labelled calls' counts. */
export function feedbackStats(
  mode: KeyMode,
  retentionDays: number,
  scores: readonly ScoreCount[],
  reasonCounts: readonly ReasonCount[],
): FeedbackStats {
  const fraud = scores.filter((s) => s.outcome === 'fraud').reduce((sum, s) => sum + s.calls, 0);
  const legitimate = scores.reduce((sum, s) => sum + s.calls, 0) - fraud;
  return {
    mode,
    retention_days: retentionDays,
    labelled_calls: fraud + legitimate,
    fraud,
    legitimate,
    auc: aucOf(scores),
    enough_labels: fraud >= MIN_LABELS_PER_OUTCOME && legitimate >= MIN_LABELS_PER_OUTCOME,
    risk_levels: riskLevels(scores),
    reliability: reliability(scores),
    reasons: reasons(reasonCounts),
  };
}
