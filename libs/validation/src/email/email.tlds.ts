import { createRequire } from 'node:module';

/**
 * Top-level domains delegated in the IANA root zone, lower case (IDN TLDs in their A-label
 * form), from the npm package `tlds` (MIT; version and date in docs/models/email.md). Only a
 * label in this set is a TLD: anything else after the last dot is a typo candidate.
 */
export function loadRootZoneTlds(): ReadonlySet<string> {
  const list: unknown = createRequire(__filename)('tlds');
  if (!Array.isArray(list) || !list.every((t): t is string => typeof t === 'string')) {
    throw new TypeError('tlds is not a list of strings');
  }
  return new Set(list.map((t) => new URL(`http://x.${t}`).hostname.slice(2)));
}
