import { cappedBackoffMs } from '@verity/common';

/** Longest wait between two webhook attempts. */
export const WEBHOOK_MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * Delay before the attempt after failed attempt `attempt` (1-based): `baseMs` (the config's
 * WEBHOOK_RETRY_BASE_MS, 30 s by default) doubling each time, capped at 1 h. The same schedule
 * the job queue keeps for the webhook job (the end effects enqueue it with these two numbers).
 */
export function webhookRetryDelayMs(attempt: number, baseMs: number): number {
  return cappedBackoffMs(attempt, baseMs, WEBHOOK_MAX_DELAY_MS);
}
