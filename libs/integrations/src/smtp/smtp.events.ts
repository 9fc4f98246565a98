import type { SmtpReason, SmtpVerdict } from '@verity/validation';

/** How a session ended: reached RCPT, refused (421/4xx/5xx before RCPT), no connection, broke. */
export type SmtpSessionOutcome = 'served' | 'refused' | 'unreachable' | 'failed';

/** Hooks for metrics (docs/operations.md, "Metrics"); every one optional. */
export interface SmtpEvents {
  /** A session was attempted and ended so. */
  onSession?(outcome: SmtpSessionOutcome): void;
  /** One RCPT TO sent: for an address, or the random one of a catch-all check. */
  onRcpt?(kind: 'address' | 'catch_all'): void;
  /** One address answered, live or from the cache. */
  onAnswer?(verdict: SmtpVerdict, reason: SmtpReason, source: 'live' | 'cached'): void;
  /** A host refused a session (421 or 4xx before RCPT, or 421 after) and was backed off. */
  onRefusal?(stage: 'session' | 'rcpt'): void;
  /** Time a session waited for its host's slot (session cap, rate, backoff), in seconds. */
  onHostWait?(seconds: number): void;
}
