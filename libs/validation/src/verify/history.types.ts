// What an account's own traffic and reported outcomes say about the values of a verify call
// (docs/models/verify.md, "History rules"). The API's history store fills it; the model reads it.

/** Distinct emails (phones, for calls without an email) seen with one value, this call's own included. */
export interface LinkedCounts {
  /** In the last hour. */
  h1: number;
  /** In the last 24 hours. */
  h24: number;
  /** In the last 30 days. */
  d30: number;
}

/** Reports on one value: each weighs 1 when made and half as much every half-life after. */
export interface ReportedWeight {
  fraud: number;
  legitimate: number;
}

/** What the account has seen of one value of the call, and what it reported about it. */
export interface ValueHistory {
  /** Who else used it: kept for IP addresses, their /24 (/64) and phones; null for emails. */
  linked: LinkedCounts | null;
  /** Milliseconds since the account first sent the value; 0 when this call is the first. */
  firstSeenAgoMs: number;
  /** Verify calls of the account with this value, this one included. */
  calls: number;
  reported: ReportedWeight;
}

/**
 * The history of each value of the call. A value is absent when the call did not supply it or
 * it is not recorded (a test key's magic input, docs/test-mode.md).
 */
export interface FraudHistory {
  email?: ValueHistory;
  phone?: ValueHistory;
  ip?: ValueHistory;
  /** The IP address's /24 (IPv4) or /64 (IPv6). */
  subnet?: ValueHistory;
}

/** The kinds of value a call's history is kept for. */
export type HistoryValueKind = keyof FraudHistory;
