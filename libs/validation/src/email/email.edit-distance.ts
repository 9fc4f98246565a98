// Edit distance and the kind of a single slip on a QWERTY keyboard, shared by the typo rules
// of email.typo.ts and email.provider-neighbourhood.ts.

// Lower-case QWERTY neighbours (digits row included): a substitution or an inserted key on a
// short name only counts as a typo when the keys touch.
const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const ADJACENT = new Map<string, Set<string>>();
KEY_ROWS.forEach((row, r) => {
  for (let c = 0; c < row.length; c++) {
    const near = new Set<string>();
    for (const [dr, dc] of [
      [0, -1],
      [0, 1],
      [-1, 0],
      [-1, 1],
      [1, 0],
      [1, -1],
    ]) {
      const key = KEY_ROWS[r + dr]?.[c + dc];
      if (key !== undefined) near.add(key);
    }
    ADJACENT.set(row[c], near);
  }
});

function adjacent(a: string, b: string): boolean {
  return ADJACENT.get(a)?.has(b) === true;
}

/**
 * Optimal-string-alignment Damerau–Levenshtein distance, or `max + 1` as soon as it must
 * exceed `max` (the bound keeps the typo check cheap on the offline path).
 */
export function boundedDamerauLevenshtein(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        v = Math.min(v, prev2[j - 2] + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

export type EditKind = 'doubled' | 'transposition' | 'deletion' | 'adjacent' | 'other';

/** Classifies the single edit turning `target` into `typed` (distance 1 assumed). */
export function singleEdit(typed: string, target: string): EditKind {
  let i = 0;
  while (i < typed.length && typed[i] === target[i]) i++;
  if (typed.length === target.length + 1) {
    const extra = typed[i];
    if (extra === typed[i - 1] || extra === typed[i + 1]) return 'doubled';
    return adjacent(extra, typed[i - 1] ?? '') || adjacent(extra, typed[i + 1] ?? '')
      ? 'adjacent'
      : 'other';
  }
  if (typed.length + 1 === target.length) return 'deletion';
  if (typed[i + 1] === target[i] && typed[i] === target[i + 1]) return 'transposition';
  return adjacent(typed[i], target[i]) ? 'adjacent' : 'other';
}
