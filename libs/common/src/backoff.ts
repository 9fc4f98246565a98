/**
 * Capped exponential backoff with full jitter: a random wait in [0, min(cap, base·2^(attempt-1))).
 * Many workers retrying one recovering server spread out instead of arriving together
 * (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015). `attempt` is 1-based.
 */
export function jitteredBackoffMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30));
  return Math.floor(random() * ceiling);
}
