// The neighbourhood rule of the typo model (docs/models/email.md, "Typo model", step 2): the
// domains one or two slips from a big provider are its users' typos or typo-squats registered
// to harvest them, so they are corrected unless the curated list of real near domains
// (email.near-domains.ts) names them. The bundled provider and disposable lists do not protect
// a neighbour: they list hundreds of squats (gmai.com, hotmil.com, btinernet.com).
import { boundedDamerauLevenshtein, singleEdit } from './email.edit-distance';

/**
 * The biggest mailbox providers, most used first: the ones whose users' typos are frequent
 * enough to be worth squatting. Names of 3–4 letters under a generic TLD are left out (every
 * 3- and 4-letter .com and .net name is registered by someone: aol, msn, live, att, cox);
 * short names under a country TLD (mail.ru, web.de, free.fr) stay, with the strict rule below.
 */
export const BIG_PROVIDERS: readonly string[] = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'comcast.net',
  'mail.ru', 'yandex.ru', 'web.de', 'gmx.de', 'gmx.net', 't-online.de', 'sbcglobal.net',
  'verizon.net', 'bellsouth.net', 'charter.net', 'earthlink.net', 'btinternet.com',
  'orange.fr', 'wanadoo.fr', 'free.fr', 'laposte.net', 'hotmail.co.uk', 'yahoo.co.uk',
  'hotmail.fr', 'yahoo.fr', 'libero.it', 'rediffmail.com', 'bigpond.com', 'rocketmail.com',
]; // prettier-ignore

/**
 * The distance at which the name `typed` is in the neighbourhood of the big provider's name
 * `target` (same suffix assumed), or null:
 * - 5+ letters: any single edit (`tahoo`, `yahho`, `gimail`, `hotmeil`, `outlock`);
 * - two edits keeping the first letter on names of 8+ letters (`sbcgloble`, `btinernett`),
 *   and on 6–7 letters only a letter moved two places (`icould`): other double slips of a
 *   shorter name make words (`compact` is two keys from `comcast`);
 * - 3–4 letters (country TLDs only): one slip keeping the first letter: a dropped, doubled,
 *   swapped or touching key (`mai.ru`, `wev.de`), never an unrelated key.
 */
export function neighbourDistance(typed: string, target: string): number | null {
  if (typed === target || target.length <= 2) return null;
  const n = target.length;
  const max = n >= 6 ? 2 : 1;
  const d = boundedDamerauLevenshtein(typed, target, max);
  if (d > max) return null;
  if (d === 2) {
    if (typed[0] !== target[0]) return null;
    return n >= 8 || sameLetters(typed, target) ? d : null;
  }
  if (n >= 5) return d;
  if (typed[0] !== target[0] || typed.length < 3) return null;
  const kind = singleEdit(typed, target);
  if (kind === 'other') return null;
  return n === 3 && kind === 'deletion' ? null : d;
}

function sameLetters(a: string, b: string): boolean {
  return a.length === b.length && [...a].sort().join('') === [...b].sort().join('');
}
