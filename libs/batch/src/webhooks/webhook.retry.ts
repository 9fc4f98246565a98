/** First retry delay of a failed webhook delivery. */
export const WEBHOOK_BASE_DELAY_MS = 30_000;
/** Longest wait between two webhook attempts. */
export const WEBHOOK_MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * Delay before attempt `attempt + 1` after attempt `attempt` (1-based) failed: 30 s doubling
 * each time (30 s, 1 min, 2 min, 4 min, ...) capped at 1 h. Deterministic, so queues that take
 * a fixed backoff table (Bull's exponential with delay 30000) give the same schedule.
 */
export function webhookRetryDelayMs(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt is 1-based');
  return Math.min(WEBHOOK_BASE_DELAY_MS * 2 ** (attempt - 1), WEBHOOK_MAX_DELAY_MS);
}
