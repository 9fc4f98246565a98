/**
 * The one retry schedule of Verity: capped exponential, `min(cap, base·2^(attempt-1))` after
 * failed attempt `attempt` (1-based). Deterministic: the job queues (both adapters) wait exactly
 * this long, so the next retry time recorded for a webhook attempt is the one the queue keeps.
 */
export function cappedBackoffMs(attempt: number, baseMs: number, capMs: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt is 1-based');
  return Math.round(Math.min(capMs, baseMs * 2 ** Math.min(attempt - 1, 30)));
}

/**
 * {@link cappedBackoffMs} with full jitter: a random wait in [0, capped delay). Many workers
 * retrying one recovering server spread out instead of arriving together (AWS Architecture
 * Blog, "Exponential Backoff And Jitter", 2015). `attempt` is 1-based.
 */
export function jitteredBackoffMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * cappedBackoffMs(Math.max(attempt, 1), baseMs, capMs));
}
