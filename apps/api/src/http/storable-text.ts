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

/**
 * The path (`a.b.0`) of the first key or string in `value` that cannot be stored, if any. Runs
 * on every JSON body: a storable body (the usual case) allocates nothing but its key lists.
 */
export function firstUnstorablePath(value: unknown): string | undefined {
  return unstorableAt(value)?.reverse().join('.');
}

/** The path of the first unstorable key or string, innermost segment first. */
function unstorableAt(value: unknown): string[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    if (!isStorableText(key)) return [JSON.stringify(key).slice(1, -1)];
    const found = unstorableAt((value as Record<string, unknown>)[key]);
    if (found !== undefined) {
      found.push(key);
      return found;
    }
  }
  return undefined;
}
