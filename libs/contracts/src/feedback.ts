// The account's reported outcomes: POST /v1/feedback and GET /v1/feedback/stats
// (docs/history.md). Plain types, so the client SDK ships them; feedback.schemas.ts checks its
// schemas against them.
import type { KeyMode } from './account';
import type { RiskLevel } from './results';

/** How a verify call turned out, as the account reports it. */
export const FEEDBACK_OUTCOMES = ['fraud', 'legitimate'] as const;
export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

/** The values an outcome is recorded against: the /24 (/64) goes with an IP address. */
export const HISTORY_VALUES = ['email', 'phone', 'ip', 'subnet'] as const;
export type HistoryValue = (typeof HISTORY_VALUES)[number];

/** POST /v1/feedback by the `request_id` of a verify answer. */
export interface FeedbackByRequest {
  request_id: string;
  outcome: FeedbackOutcome;
}

/** POST /v1/feedback by value: any of email, phone and ip, with no request_id. */
export interface FeedbackByValue {
  email?: string;
  phone?: string;
  ip?: string;
  outcome: FeedbackOutcome;
}

export type FeedbackRequest = FeedbackByRequest | FeedbackByValue;

/** The answer of POST /v1/feedback (free). */
export interface FeedbackResult {
  outcome: FeedbackOutcome;
  /** The verify call reported; null for a report by value. */
  request_id: string | null;
  /** The values whose later scores the report moves. */
  values: HistoryValue[];
  credits_used: 0;
}

/** Labelled calls at one risk level. */
export interface RiskLevelStats {
  risk: RiskLevel;
  calls: number;
  fraud: number;
  legitimate: number;
}

/** Labelled calls whose fraud_score lies in [min_score, max_score]. */
export interface ReliabilityBand {
  min_score: number;
  max_score: number;
  calls: number;
  fraud: number;
  /** Mean fraud_score of these calls; null when there are none. */
  mean_score: number | null;
  /** fraud ÷ calls; null when there are none. */
  fraud_rate: number | null;
}

/** How often one reason was right on the labelled calls it appeared on. */
export interface ReasonStats {
  code: string;
  /** `risk` reasons predict fraud, `credit` reasons predict legitimate. */
  direction: 'risk' | 'credit';
  calls: number;
  fraud: number;
  /** Share of its calls whose outcome matched its direction. */
  precision: number;
}

/** GET /v1/feedback/stats: what the reported outcomes say about the account's scores. */
export interface FeedbackStats {
  mode: KeyMode;
  /** Labelled calls of the last this many days count. */
  retention_days: number;
  labelled_calls: number;
  fraud: number;
  legitimate: number;
  /** Chance a fraud call scored above a legitimate one (ties count half); null without both. */
  auc: number | null;
  /** Whether each outcome has the labels docs/history.md asks for before the figures are read. */
  enough_labels: boolean;
  risk_levels: RiskLevelStats[];
  reliability: ReliabilityBand[];
  /** Most frequent first. */
  reasons: ReasonStats[];
}
