// Account-level answers: GET /v1/ping, the key management routes and the explained verify call
// with the account's history of its values. Plain types (no zod) so the client SDK can ship
// them; responses.ts and feedback.schemas.ts check their schemas against them.

import type { VerifyResult } from './results';

/** GET /v1/ping: the key's account, its own name and the credits left (free). */
export interface PingResponse {
  account: { id: string; name: string };
  key: { id: string; name: string };
  credits_remaining: number;
  credits_used: 0;
}

/**
 * What a key's calls do: `live` keys are charged and look things up on the network; `test` keys
 * (`vrt_test_…`) answer the same shapes for free, offline, with documented magic inputs.
 */
export const KEY_MODES = ['live', 'test'] as const;
/** A key's mode. */
export type KeyMode = (typeof KEY_MODES)[number];

/** A key as GET /v1/keys lists it: never its value. */
export interface ApiKey {
  id: string;
  name: string;
  /** `live` (charged, on the network) or `test` (free, offline, magic inputs). */
  mode: KeyMode;
  /** The prefix and the first 4 of the 24 random characters (`vrt_live_Ab3d…`), enough to recognise it. */
  hint: string;
  created_at: string;
  rotated_at: string | null;
  /** Last authenticated call; recorded about once a minute, so it may lag by a minute. */
  last_used_at: string | null;
}

/** A key with its value: the answer of create and rotate, the only time the value is shown. */
export interface IssuedApiKey extends ApiKey {
  key: string;
}

/** One line of `POST /v1/verify?explain=true`: `points` > 0 adds risk, < 0 is credit. */
export interface ExplainedReason {
  code: string;
  description: string;
  points: number;
  signal: 'email' | 'phone' | 'ip' | 'cross';
}

/** What the account has seen of one value of a verify call (`?explain=true`). */
export interface ValueHistoryView {
  /** Distinct emails seen with the value, this call's included; null for an email. */
  linked: { '1h': number; '24h': number; '30d': number } | null;
  /** When the account first sent the value (ISO 8601). */
  first_seen: string;
  /** Verify calls with the value, this one included. */
  calls: number;
  /** Report weights now: each report weighs 1 when made and halves every half-life. */
  reported: { fraud: number; legitimate: number };
}

/** `history` of POST /v1/verify?explain=true: a key per value the call's history is kept for. */
export interface VerifyHistoryView {
  email?: ValueHistoryView;
  phone?: ValueHistoryView;
  ip?: ValueHistoryView;
  subnet?: ValueHistoryView;
}

/** `POST /v1/verify?explain=true`: the default shape plus the base score and its reasons. */
export interface ExplainedVerifyResult extends VerifyResult {
  fraud_base: number;
  reasons: ExplainedReason[];
  /** What the account has seen of each value and reported about it (docs/history.md). */
  history: VerifyHistoryView;
}

/** One ledger row as the console's billing page shows it. */
export interface LedgerEntry {
  id: string;
  created_at: string;
  /** `top_up`, `grant`, an operation (a call's debit or refund), `batch_*` or `lease_*`. */
  reason: string;
  key_id: string | null;
  key_name: string | null;
  delta: number;
  balance_after: number;
  /** What the movement is about (a job or request id); null on lease movements. */
  reference: string | null;
}

/** A page of the ledger, newest first; `next_before` fetches the following (older) page. */
export interface LedgerPage {
  data: LedgerEntry[];
  next_before: string | null;
}
