/**
 * A report weight `weight` held since `since` as it is at `at`: half as much every half-life
 * (docs/history.md, "Reports"). A moment before `since` (another instance's clock) keeps it whole.
 * redis.history-store.ts mirrors this in Lua.
 */
export function decayed(weight: number, since: number, at: number, halfLifeMs: number): number {
  if (weight === 0) return 0;
  return weight * Math.pow(2, -Math.max(0, at - since) / halfLifeMs);
}

/** `weight` decayed to `at`, plus `change`, never below zero. */
export function reweighed(
  weight: number,
  since: number,
  change: number,
  at: number,
  halfLifeMs: number,
): number {
  return Math.max(0, decayed(weight, since, at, halfLifeMs) + change);
}
