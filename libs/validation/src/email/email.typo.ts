// Typo model for did_you_mean (docs/models/email.md): a curated list of popular mailbox
// domains, a bounded Damerau–Levenshtein distance, and fixes for TLDs that do not exist.

/**
 * Popular consumer mail domains, most used first (ties go to the earlier one). Near neighbours
 * that are real providers (mail.com, gmx.com, aim.com, ...) are listed so they are never
 * "corrected" into their bigger sibling.
 */
export const POPULAR_EMAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'aol.com',
  'live.com', 'msn.com', 'me.com', 'mac.com', 'googlemail.com', 'ymail.com', 'rocketmail.com',
  'protonmail.com', 'proton.me', 'pm.me', 'zoho.com', 'yandex.com', 'yandex.ru', 'mail.ru',
  'gmx.com', 'gmx.net', 'gmx.de', 'web.de', 't-online.de', 'mail.com', 'email.com', 'aim.com',
  'qq.com', '163.com', '126.com', 'naver.com', 'hanmail.net', 'comcast.net', 'verizon.net',
  'att.net', 'sbcglobal.net', 'bellsouth.net', 'cox.net', 'charter.net', 'earthlink.net',
  'juno.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.it', 'yahoo.es', 'yahoo.ca',
  'yahoo.co.in', 'yahoo.com.br', 'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it',
  'hotmail.es', 'outlook.fr', 'outlook.de', 'live.co.uk', 'live.fr', 'btinternet.com',
  'orange.fr', 'wanadoo.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'libero.it', 'virgilio.it',
  'seznam.cz', 'wp.pl', 'o2.pl', 'interia.pl', 'rediffmail.com', 'bigpond.com', 'shaw.ca',
  'rogers.com', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'fastmail.com', 'tutanota.com',
  'hey.com', 'inbox.com', 'yahoo.co.jp', 'yahoo.co.id', 'yahoo.com.au', 'yahoo.com.ar',
  'yahoo.com.mx', 'hotmail.co.jp', 'outlook.jp', 'live.jp', 'live.ca', 'live.it', 'live.de',
]; // prettier-ignore

/**
 * Misspelt top-level domains that are not delegated in the root zone, so a fix never turns a
 * real TLD into another one (".co" and ".om" exist, they are not here).
 */
const TLD_FIXES: ReadonlyMap<string, string> = new Map([
  ['con', 'com'], ['cmo', 'com'], ['ocm', 'com'], ['vom', 'com'], ['xom', 'com'],
  ['cpm', 'com'], ['comm', 'com'], ['coom', 'com'], ['cim', 'com'], ['c0m', 'com'],
  ['nte', 'net'], ['nett', 'net'], ['ent', 'net'], ['ogr', 'org'], ['orgg', 'org'],
  ['rog', 'org'], ['couk', 'co.uk'],
]); // prettier-ignore

const MAX_DISTANCE = 2;
/** Distance 2 only for domains at least this long: short domains are too close to each other. */
const MIN_LENGTH_FOR_DISTANCE_2 = 10;
const MEMO_SIZE = 50_000;

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

/** Suggests corrected domains for likely typos; memoised per domain with a bounded table. */
export class DomainTypoModel {
  private readonly popular: ReadonlySet<string>;
  private readonly byLength = new Map<number, string[]>();
  private readonly memo = new Map<string, string | null>();
  private readonly rank = new Map<string, number>();

  constructor(popular: readonly string[] = POPULAR_EMAIL_DOMAINS) {
    this.popular = new Set(popular);
    popular.forEach((d, i) => this.rank.set(d, i));
    for (const d of popular) {
      const list = this.byLength.get(d.length) ?? [];
      list.push(d);
      this.byLength.set(d.length, list);
    }
  }

  /** The corrected domain, or null when the domain is known-good or matches nothing close. */
  suggest(domain: string): string | null {
    const hit = this.memo.get(domain);
    if (hit !== undefined) return hit;
    const result = this.compute(domain);
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(domain, result);
    return result;
  }

  private compute(domain: string): string | null {
    if (this.popular.has(domain)) return null;
    const close = this.closestPopular(domain);
    if (close !== null) return close;
    const dot = domain.lastIndexOf('.');
    const fixedTld = dot > 0 ? TLD_FIXES.get(domain.slice(dot + 1)) : undefined;
    if (fixedTld === undefined) return null;
    const fixed = `${domain.slice(0, dot)}.${fixedTld}`;
    // "gmial.con": fix the TLD, then the name.
    return this.popular.has(fixed) ? fixed : (this.closestPopular(fixed) ?? fixed);
  }

  private closestPopular(domain: string): string | null {
    const max = domain.length >= MIN_LENGTH_FOR_DISTANCE_2 ? MAX_DISTANCE : 1;
    let best: string | null = null;
    let bestDistance = max + 1;
    let bestRank = Infinity;
    for (let len = domain.length - max; len <= domain.length + max; len++) {
      for (const candidate of this.byLength.get(len) ?? []) {
        const d = boundedDamerauLevenshtein(domain, candidate, max);
        if (d > max || d > bestDistance) continue;
        const rank = this.rank.get(candidate)!;
        if ((d < bestDistance || rank < bestRank) && !swapsCountryCode(domain, candidate)) {
          best = candidate;
          bestDistance = d;
          bestRank = rank;
        }
      }
    }
    return best;
  }
}

/** Last label of a domain. */
function tld(domain: string): string {
  return domain.slice(domain.lastIndexOf('.') + 1);
}

/**
 * yahoo.co.jp is not a typo of yahoo.co.uk: never trade one two-letter (country) TLD for
 * another. A generic TLD can still be fixed (hotmail.co -> hotmail.com).
 */
function swapsCountryCode(domain: string, candidate: string): boolean {
  const a = tld(domain);
  const b = tld(candidate);
  return a !== b && a.length === 2 && b.length === 2;
}
