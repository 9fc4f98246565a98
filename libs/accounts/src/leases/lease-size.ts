/** Credits a first lease asks for, before the account's rate is known. */
export const FIRST_BLOCK = 50;
/** A lease asks for this many seconds of the account's recent spending on this instance. */
export const BLOCK_SECONDS = 5;
/** The largest block one reservation asks for (the SQL also caps it at a quarter of the balance). */
export const MAX_BLOCK = 1_000_000;

/**
 * Credits to ask for when the lease of an account runs low: `BLOCK_SECONDS` of its recent rate
 * on this instance (credits per second, an exponential average over settle intervals), never
 * less than the call that needs it. Rate-adaptive, so a quiet account holds little and a busy
 * one refills rarely.
 */
export function blockSize(ratePerSecond: number, cost: number): number {
  const wanted = ratePerSecond > 0 ? Math.ceil(ratePerSecond * BLOCK_SECONDS) : FIRST_BLOCK;
  return Math.min(MAX_BLOCK, Math.max(cost, wanted));
}

/** Exponential average of the spending rate: half the weight to the interval just ended. */
export function nextRate(previous: number, spent: number, intervalMs: number): number {
  return previous / 2 + (spent * 1000) / intervalMs / 2;
}
