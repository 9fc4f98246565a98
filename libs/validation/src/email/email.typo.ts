// Typo model for did_you_mean (docs/models/email.md, "Typo model"): a wrong suggestion on a
// real domain is worse than none, so every rule below errs on the side of silence.
import { REAL_NEAR_PROVIDER_DOMAINS } from './email.near-domains';
import { loadRootZoneTlds } from './email.tlds';

/**
 * Popular consumer mail domains, most used first (ties go to the earlier one): the only
 * targets a suggestion can point to, besides a fixed generic TLD.
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

/** Generic TLDs a non-existent TLD may be fixed to on any domain, most used first. */
const GENERIC_FIXES: readonly string[] = ['com', 'net', 'org', 'co.uk'];

/** Second-level labels under which ccTLDs register names (`yahoo.co.uk`, `uol.com.br`). */
const SECOND_LEVELS = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ne', 'or']);

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

/**
 * The edit distance at which `typed` counts as a typo of the provider name `target`, or null
 * when it must not be corrected. The shorter the name, the more real domains sit next to it
 * (gm.com, ms.com, bol.com, life.com), so the stricter the rule:
 * - the first character is kept (or swapped with the second) unless the name has 7+
 *   characters and the slip is a touching key, a doubled key or a dropped first letter
 *   (people rarely miss the first key; changing it freely mostly makes another word);
 * - 2 characters or fewer: nothing; 3 characters: only a doubled letter (`aoll`);
 * - 4 characters: a transposition or a doubled letter;
 * - 5 or more characters: one edit; 8 or more: up to two, keeping the first and last letters.
 * A single substituted or inserted key must touch its neighbour on QWERTY (or double one):
 * `earthling` is not a slip of `earthlink`.
 */
export function nameTypoDistance(typed: string, target: string): number | null {
  if (typed === target) return null;
  const n = target.length;
  const max = n >= 8 ? 2 : 1;
  const d = boundedDamerauLevenshtein(typed, target, max);
  if (d > max) return null;
  const firstKept = typed[0] === target[0] || (typed[0] === target[1] && typed[1] === target[0]);
  if (d === 2) {
    // Two edits only inside the name: a changed end makes another word (googlemaps).
    return typed[0] === target[0] && typed.at(-1) === target.at(-1) ? d : null;
  }
  const kind = singleEdit(typed, target);
  if (kind === 'other') return null;
  if (n >= 7) return d;
  if (!firstKept) return null;
  // Two-letter names (me, pm, wp, o2, qq) are next to too many real names for any edit.
  if (n <= 2) return null;
  if (kind === 'doubled') return d;
  if (n <= 3) return null;
  if (kind === 'transposition') return d;
  if (n === 4) return null;
  return d;
}

type EditKind = 'doubled' | 'transposition' | 'deletion' | 'adjacent' | 'other';

/** Classifies the single edit turning `target` into `typed` (distance 1 assumed). */
function singleEdit(typed: string, target: string): EditKind {
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

interface Parts {
  /** Labels left of the registered name (`mail` in `mail.yahoo.com`). */
  prefix: string;
  name: string;
  /** Public suffix, approximated: the TLD, or `co.uk`-style second level plus the TLD. */
  suffix: string;
}

function split(domain: string): Parts | null {
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  const two = labels.length >= 3 && SECOND_LEVELS.has(labels[labels.length - 2]);
  const suffixLabels = two ? 2 : 1;
  return {
    prefix: labels.slice(0, -suffixLabels - 1).join('.'),
    name: labels[labels.length - suffixLabels - 1],
    suffix: labels.slice(-suffixLabels).join('.'),
  };
}

interface Provider {
  domain: string;
  name: string;
  suffix: string;
  dotless: string;
  rank: number;
}

/** Options of the typo model. */
export interface DomainTypoModelOptions {
  /** Suggestion targets, most popular first; default POPULAR_EMAIL_DOMAINS. */
  popular?: readonly string[];
  /** Domains that are real and must never be corrected (known providers, disposable domains). */
  isKnown?: (domain: string) => boolean;
  /** Delegated TLDs; default the bundled IANA root zone list. */
  tlds?: ReadonlySet<string>;
}

/** Suggests corrected domains for likely typos; memoised per domain with a bounded table. */
export class DomainTypoModel {
  private readonly known: ReadonlySet<string>;
  private readonly isKnown: (domain: string) => boolean;
  private readonly tlds: ReadonlySet<string>;
  private readonly providers: Provider[];
  private readonly memo = new Map<string, string | null>();

  constructor(options: DomainTypoModelOptions = {}) {
    const popular = options.popular ?? POPULAR_EMAIL_DOMAINS;
    this.known = new Set([...popular, ...REAL_NEAR_PROVIDER_DOMAINS]);
    this.isKnown = options.isKnown ?? (() => false);
    this.tlds = options.tlds ?? loadRootZoneTlds();
    this.providers = popular.map((domain, rank) => {
      const p = split(domain)!;
      return { domain, name: p.name, suffix: p.suffix, dotless: domain.replace(/\./g, ''), rank };
    });
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
    if (this.known.has(domain) || this.isKnown(domain)) return null;
    const parts = split(domain);
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    if (parts === null || !this.tlds.has(tld)) return this.fixUnknownTld(domain, parts);
    // A real TLD: a slipped dot (`gmailc.om`), or the name of a bare registered domain.
    const dotless = domain.replace(/\./g, '');
    const slipped = this.providers.find((p) => p.dotless === dotless);
    if (slipped !== undefined) return slipped.domain;
    if (parts.prefix !== '') return null;
    return this.closestByName(parts) ?? this.droppedTldKey(parts);
  }

  /** Same suffix, the name a typo of a provider's name (`gmial.com`). */
  private closestByName(parts: Parts): string | null {
    let best: Provider | null = null;
    let bestDistance = Infinity;
    for (const p of this.providers) {
      if (p.suffix !== parts.suffix) continue;
      const d = nameTypoDistance(parts.name, p.name);
      if (d !== null && d < bestDistance) {
        best = p;
        bestDistance = d;
      }
    }
    return best?.domain ?? null;
  }

  /**
   * `hotmail.co`, `gmail.cm`, `hotmial.co`: a provider's name (exact or an accepted typo)
   * under its generic TLD with one key dropped. These short ccTLDs exist, but a big
   * provider's name under them is not its mailbox (the known-domain lists say when it is).
   */
  private droppedTldKey(parts: Parts): string | null {
    let best: Provider | null = null;
    let bestDistance = Infinity;
    for (const p of this.providers) {
      if (p.suffix.length !== 3 || parts.suffix.length !== 2) continue;
      if (boundedDamerauLevenshtein(parts.suffix, p.suffix, 1) !== 1) continue;
      const d = p.name === parts.name ? 0 : nameTypoDistance(parts.name, p.name);
      if (d !== null && d < bestDistance) {
        best = p;
        bestDistance = d;
      }
    }
    return best?.domain ?? null;
  }

  /**
   * The last label is not a delegated TLD, so something after the name is mistyped: a
   * provider whose name and suffix are each within reach (`mail.ry` → `mail.ru`,
   * `hotmail.co.ul` → `hotmail.co.uk`, `gmailcom` → `gmail.com`), else a generic TLD one
   * edit away (`acme.con` → `acme.com`).
   */
  private fixUnknownTld(domain: string, parts: Parts | null): string | null {
    const dotless = domain.replace(/\./g, '');
    let best: Provider | null = null;
    let bestScore = Infinity;
    for (const p of this.providers) {
      let score: number;
      if (p.dotless === dotless) score = 1;
      else if (parts === null || parts.prefix !== '') continue;
      else {
        const nameD = parts.name === p.name ? 0 : nameTypoDistance(parts.name, p.name);
        if (nameD === null) continue;
        const suffixD = boundedDamerauLevenshtein(parts.suffix, p.suffix, 1);
        if (suffixD > 1) continue;
        score = nameD + suffixD;
      }
      if (score < bestScore) {
        best = p;
        bestScore = score;
      }
    }
    if (best !== null) return best.domain;
    if (parts === null) return null;
    const generic = GENERIC_FIXES.find((g) => boundedDamerauLevenshtein(parts.suffix, g, 1) === 1);
    if (generic === undefined) return null;
    const fixed = `${parts.prefix === '' ? '' : `${parts.prefix}.`}${parts.name}.${generic}`;
    if (parts.prefix !== '') return fixed;
    return this.closestByName(split(fixed)!) ?? fixed;
  }
}
