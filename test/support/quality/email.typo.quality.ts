// did_you_mean quality over the corpora in __fixtures__/typo-corpus (see SOURCES.md there):
// printed by `npm run bench:engines`, floors asserted in email.typo.quality.spec.ts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The two corpora: typos with the domain meant, and real domains that need no correction. */
export interface TypoCorpus {
  typos: ReadonlyArray<readonly [typo: string, meant: string]>;
  legit: readonly string[];
}

/** Precision and recall of a suggester over a corpus. */
export interface TypoQuality {
  /** Suggestions that name the meant domain / all suggestions made (typos and legit). */
  precision: number;
  /** Typos given the meant domain / all typos. */
  recall: number;
  /** Legitimate domains given any suggestion / all legitimate domains. */
  legitFlagged: number;
  /** Up to 20 examples of each failure, for the log. */
  wrong: string[];
  missed: string[];
  flagged: string[];
}

/** Reads the corpora from the source tree (fixtures are not copied into dist). */
export function loadTypoCorpus(from: string = __dirname): TypoCorpus {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const base = join(dir, 'libs/validation/src/email/__fixtures__/typo-corpus');
  const lines = (file: string) =>
    readFileSync(join(base, file), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0);
  return {
    typos: lines('typos.tsv').map((l) => {
      const [typo, meant] = l.split('\t');
      return [typo, meant] as const;
    }),
    legit: lines('legit.txt'),
  };
}

/** Runs `suggest` over both corpora. */
export function measureTypoQuality(
  corpus: TypoCorpus,
  suggest: (domain: string) => string | null,
): TypoQuality {
  let right = 0;
  let made = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  const flagged: string[] = [];
  for (const [typo, meant] of corpus.typos) {
    const got = suggest(typo);
    if (got === null) {
      missed.push(typo);
      continue;
    }
    made++;
    if (got === meant) right++;
    else wrong.push(`${typo} → ${got} (meant ${meant})`);
  }
  for (const domain of corpus.legit) {
    const got = suggest(domain);
    if (got !== null) flagged.push(`${domain} → ${got}`);
  }
  made += flagged.length;
  return {
    precision: made === 0 ? 1 : right / made,
    recall: right / corpus.typos.length,
    legitFlagged: flagged.length / corpus.legit.length,
    wrong: wrong.slice(0, 20),
    missed: missed.slice(0, 20),
    flagged: flagged.slice(0, 20),
  };
}
