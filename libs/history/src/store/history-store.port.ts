import type { HistoryValue } from '@verity/contracts';
import type { LinkedCounts } from '@verity/validation';

/** The velocity windows: distinct members of a value are counted over each. */
export const LINK_WINDOWS_MS = {
  h1: 3_600_000,
  h24: 24 * 3_600_000,
  d30: 30 * 24 * 3_600_000,
} as const;

/** The HMAC of each value of one verify call (docs/history.md): what the store is keyed by. */
export type CallValues = Partial<Record<HistoryValue, string>>;

/** One value of a call as the store records it. */
export interface ObservedValue {
  /** The value's HMAC. */
  key: string;
  /** Whether the store keeps who used the value (IP, /24, phone) and counts them. */
  linked: boolean;
  /** Who used it on this call (an email's HMAC, or a phone's), or null. */
  member: string | null;
}

/** What the store holds about one value, this call included. */
export interface StoredValue {
  /** When it was first recorded (ms since the epoch). */
  first: number;
  calls: number;
  /** Report weights as they were at `reportedAt` (decay them to now: report-weight.ts). */
  fraud: number;
  legitimate: number;
  reportedAt: number;
  /** Distinct members in the last hour, 24 hours and 30 days; null for a value not linked. */
  linked: LinkedCounts | null;
}

/** Report weight added to a value now; negative to take back an earlier report. */
export interface ReportChange {
  fraud: number;
  legitimate: number;
}

/** A value's report weights as of a moment, for `restore`. */
export interface ReportState {
  key: string;
  fraud: number;
  legitimate: number;
}

/** How long a store keeps what, and how fast reports fade. */
export interface HistoryStorePolicy {
  /** A value not seen nor reported for this long is forgotten (the retention). */
  valueTtlMs: number;
  /** Members older than this leave a value's links (the longest velocity window). */
  linkTtlMs: number;
  /** A call's values stay findable by request_id this long, until the call log has them. */
  recentTtlMs: number;
  /** Members kept per value; counts stop growing there. */
  memberCap: number;
  /** Report weights halve in this time. */
  halfLifeMs: number;
}

/**
 * The account's history of values: velocity (who used each value, when), first sighting, call
 * counts and report weights, plus each recent call's values by request_id. `scope` is the
 * account and key mode; nothing crosses scopes. Memory (embedded) and Redis (shared by every
 * API instance) adapters; history-store.contract.ts is the contract both pass.
 */
export interface HistoryStore {
  /**
   * False for a store that starts empty with its process (memory): HistoryUpkeep then replays
   * the recent calls of verify_calls into it at boot, so a restart forgets no velocity.
   */
  readonly survivesRestart: boolean;
  /**
   * Records one call at `at` (ms): each value's sighting and members, and the call's values
   * under its request_id; answers each value as it stands after the call, in order.
   */
  observe(
    scope: string,
    at: number,
    values: readonly ObservedValue[],
    call: { requestId: string; values: CallValues },
  ): Promise<StoredValue[]>;
  /** The values of a call observed within `recentTtlMs`; null otherwise or in another scope. */
  recentCall(scope: string, requestId: string): Promise<CallValues | null>;
  /** Adds `change` to each value's report weights at `at`, the old weights decayed to then. */
  report(scope: string, keys: readonly string[], change: ReportChange, at: number): Promise<void>;
  /** Sets report weights as of `at` on values that have none (after a restart or data loss). */
  restore(scope: string, states: readonly ReportState[], at: number): Promise<void>;
  /** Readiness: resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
