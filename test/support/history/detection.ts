// Detection figures the history tests assert on, computed independently of the server's own
// statistics (pairwise, no histogram).

/** Chance a positive scores above a negative, ties counted half (pairwise). */
export function pairwiseAuc(positives: readonly number[], negatives: readonly number[]): number {
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

/**
 * The share of positives at or above the lowest threshold that flags at most `fpr` of the
 * negatives, and that threshold.
 */
export function catchRateAt(
  positives: readonly number[],
  negatives: readonly number[],
  fpr: number,
): { threshold: number; caught: number; falsePositives: number } {
  for (let threshold = 0; threshold <= 101; threshold++) {
    const falsePositives = negatives.filter((s) => s >= threshold).length / negatives.length;
    if (falsePositives <= fpr) {
      return {
        threshold,
        caught: positives.filter((s) => s >= threshold).length / positives.length,
        falsePositives,
      };
    }
  }
  return { threshold: 101, caught: 0, falsePositives: 0 };
}
