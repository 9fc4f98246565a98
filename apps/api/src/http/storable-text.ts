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
