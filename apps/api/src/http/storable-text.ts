/**
 * PostgreSQL refuses NUL in text (an error, formerly a 500), and an unpaired UTF-16 surrogate
 * has no UTF-8 form (it would be stored as U+FFFD, silently changed). No email, phone, IP or
 * name needs either: they are refused at the edge.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** The path (`a.b.0`) of the first key or string in `value` that cannot be stored, if any. */
export function firstUnstorablePath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.');
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, JSON.stringify(key).slice(1, -1)].join('.');
    const found = firstUnstorablePath(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
