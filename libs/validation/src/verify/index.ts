// Combined fraud score of POST /v1/verify; the model is documented in docs/models/verify.md.
export { scoreFraud, riskFor } from './fraud.scorer';
export { FRAUD_BASE, RISK_THRESHOLDS } from './fraud.rules';
export {
  ESTABLISHED_AFTER_MS,
  HISTORY_REASON_CODES,
  VOUCHED_MARGIN,
  vouched,
} from './history.rules';
export { FRAUD_REASON_CODES } from './fraud.types';
export type {
  FraudInput,
  FraudReason,
  FraudReasonCode,
  FraudScore,
  FraudSignal,
} from './fraud.types';
export type {
  FraudHistory,
  HistoryValueKind,
  LinkedCounts,
  ReportedWeight,
  ValueHistory,
} from './history.types';
