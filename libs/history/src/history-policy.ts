import type { HistoryConfig } from '@verity/config';
import type { HistoryStorePolicy } from './store/history-store.port';
import { LINK_WINDOWS_MS } from './store/history-store.port';

const DAY_MS = 24 * 3_600_000;

/** Members kept per value: counts stop there, far above any velocity rule's cap. */
const MEMBER_CAP = 1_000;
/** A call's values wait this long in the store for the call log (written within a second). */
const RECENT_TTL_MS = 120_000;

/** The history store's policy from HISTORY_* (docs/history.md). */
export function historyPolicy(config: HistoryConfig): HistoryStorePolicy {
  const retention = config.HISTORY_RETENTION_DAYS * DAY_MS;
  return {
    valueTtlMs: retention,
    linkTtlMs: Math.min(LINK_WINDOWS_MS.d30, retention),
    recentTtlMs: RECENT_TTL_MS,
    memberCap: MEMBER_CAP,
    halfLifeMs: config.HISTORY_HALF_LIFE_DAYS * DAY_MS,
  };
}

/** The oldest moment the history keeps at `now`. */
export function retentionStart(config: HistoryConfig, now: number): Date {
  return new Date(now - config.HISTORY_RETENTION_DAYS * DAY_MS);
}
