// Typo model for did_you_mean (docs/models/email.md, "Typo model"): a wrong suggestion on a
// real domain is worse than none, so every rule below errs on the side of silence.
import { REAL_NEAR_PROVIDER_DOMAINS } from './email.near-domains';
import { BIG_PROVIDERS, neighbourDistance } from './email.provider-neighbourhood';
import { loadRootZoneTlds } from './email.tlds';
import { boundedDamerauLevenshtein, singleEdit } from './email.edit-distance';

export { boundedDamerauLevenshtein } from './email.edit-distance';

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

const MEMO_SIZE = 50_000;

/**
 * The edit distance at which `typed` counts as a typo of the provider name `target`, or null
 * when it must not be corrected. The shorter the name, the more real domains sit next to it
 * (gm.com, ms.com, bol.com, life.com), so the stricter the rule:
 * - the first character is kept (or swapped with the second) unless the name has 7+
 *   characters and the slip is a touching key, a doubled key or a dropped first letter
 *   (people rarely miss the first key; changing it freely mostly makes another word);
 * - 2 characters or fewer: nothing; 3 characters: only a doubled letter (`aoll`);
 * - 4 characters: a transposition, a doubled letter or a touching last key;
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
  // The last key of a 4-letter name slipping to a touching one (`livr`, `maik`): the
  // first three keys still spell the provider.
  if (n === 4)
    return kind === 'adjacent' && typed.length === 4 && typed[3] !== target[3] ? d : null;
  return d;
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

/** A typo of a provider's name: the structural rule, or the neighbourhood of a big provider. */
function typoDistance(name: string, p: Provider): number | null {
  const d = nameTypoDistance(name, p.name);
  if (d !== null || !p.big) return d;
  return neighbourDistance(name, p.name);
}

interface Provider {
  domain: string;
  name: string;
  suffix: string;
  dotless: string;
  rank: number;
  /** One of BIG_PROVIDERS: its whole neighbourhood is typos (neighbourDistance). */
  big: boolean;
}

/** Options of the typo model. */
export interface DomainTypoModelOptions {
  /** Suggestion targets, most popular first; default POPULAR_EMAIL_DOMAINS. */
  popular?: readonly string[];
  /**
   * Domains a list knows (bundled providers, disposable domains): only a provider-name typo
   * is corrected on them (lists also hold typo-squats), never their TLD.
   */
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
    this.known = new Set([...popular, ...REAL_NEAR_PROVIDER_DOMAINS.map((r) => r.domain)]);
    this.isKnown = options.isKnown ?? (() => false);
    this.tlds = options.tlds ?? loadRootZoneTlds();
    this.providers = popular.map((domain, rank) => {
      const p = split(domain)!;
      const dotless = domain.replace(/\./g, '');
      const big = BIG_PROVIDERS.includes(domain);
      return { domain, name: p.name, suffix: p.suffix, dotless, rank, big };
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
    if (this.known.has(domain)) return null;
    const parts = split(domain);
    if (this.isKnown(domain)) {
      // A listed domain may be a squat of a provider, never a mistyped TLD.
      return parts === null || parts.prefix !== '' ? null : this.closestByName(parts);
    }
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
      const d = typoDistance(parts.name, p);
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
      const d = p.name === parts.name ? 0 : typoDistance(parts.name, p);
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
        const nameD = parts.name === p.name ? 0 : typoDistance(parts.name, p);
        if (nameD === null) continue;
        // With the name right, the TLD may be two keys off or cut short (`comcast.nry`,
        // `gmail.c`): the label is no delegated TLD, so the domain cannot be real.
        const suffixMax = nameD === 0 ? 2 : 1;
        const suffixD = boundedDamerauLevenshtein(parts.suffix, p.suffix, suffixMax);
        if (suffixD > suffixMax) continue;
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
