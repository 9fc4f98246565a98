// did_you_mean quality over the corpora in __fixtures__/typo-corpus (see SOURCES.md there):
// printed by `npm run bench:engines`, floors asserted in email.typo.quality.spec.ts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One typo and the domain meant; `weight` is how often it occurs relative to the others. */
export interface TypoCase {
  typo: string;
  meant: string;
  weight: number;
}

/** A corpus: typos with the domain meant, and real domains that need no correction. */
export interface TypoCorpus {
  name: 'generated' | 'frequent' | 'peers';
  /** How it was made (printed beside the figures). */
  about: string;
  typos: readonly TypoCase[];
  legit: readonly string[];
}

/** Precision and recall of a suggester over a corpus. */
export interface TypoQuality {
  /** Suggestions that name the meant domain / all suggestions made (typos and legit). */
  precision: number;
  /** Weight of the typos given the meant domain / weight of all typos. */
  recall: number;
  /** Legitimate domains given any suggestion / all legitimate domains. */
  legitFlagged: number;
  /** Typos of the highest weight in the corpus given the meant domain, and their count. */
  top: { right: number; of: number };
  /** Up to 20 examples of each failure, for the log. */
  wrong: string[];
  missed: string[];
  flagged: string[];
}

function corpusDir(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, 'libs/validation/src/email/__fixtures__/typo-corpus');
}

/** Reads the three corpora from the source tree (fixtures are not copied into dist). */
export function loadTypoCorpora(from: string = __dirname): TypoCorpus[] {
  const base = corpusDir(from);
  const lines = (file: string) =>
    readFileSync(join(base, file), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0);
  const cases = (file: string): TypoCase[] =>
    lines(file).map((l) => {
      const [typo, meant, weight] = l.split('\t');
      return { typo, meant, weight: weight === undefined ? 1 : Number(weight) };
    });
  const legit = lines('legit.txt');
  return [
    {
      name: 'generated',
      about: 'single-edit typos of 48 providers made by scripts/quality',
      typos: cases('typos.tsv'),
      legit,
    },
    {
      name: 'frequent',
      about: 'the most frequent typos of the biggest providers, weighted 3 (most) to 1',
      typos: cases('frequent.tsv'),
      legit,
    },
    {
      name: 'peers',
      about: "mailcheck, @zootools/email-spell-checker and email-misspelled's test cases",
      typos: cases('peers.tsv'),
      legit: lines('peers-legit.txt'),
    },
  ];
}

/** Runs `suggest` over a corpus. */
export function measureTypoQuality(
  corpus: TypoCorpus,
  suggest: (domain: string) => string | null,
): TypoQuality {
  let right = 0;
  let made = 0;
  let weightRight = 0;
  let weightAll = 0;
  const topWeight = Math.max(...corpus.typos.map((t) => t.weight));
  const top = { right: 0, of: 0 };
  const wrong: string[] = [];
  const missed: string[] = [];
  const flagged: string[] = [];
  for (const { typo, meant, weight } of corpus.typos) {
    weightAll += weight;
    if (weight === topWeight) top.of++;
    const got = suggest(typo);
    if (got === null) {
      missed.push(typo);
      continue;
    }
    made++;
    if (got === meant) {
      right++;
      weightRight += weight;
      if (weight === topWeight) top.right++;
    } else wrong.push(`${typo} → ${got} (meant ${meant})`);
  }
  for (const domain of corpus.legit) {
    const got = suggest(domain);
    if (got !== null) flagged.push(`${domain} → ${got}`);
  }
  made += flagged.length;
  return {
    precision: made === 0 ? 1 : right / made,
    recall: weightAll === 0 ? 1 : weightRight / weightAll,
    legitFlagged: flagged.length / corpus.legit.length,
    top,
    wrong: wrong.slice(0, 20),
    missed: missed.slice(0, 20),
    flagged: flagged.slice(0, 20),
  };
}
