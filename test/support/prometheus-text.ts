/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed scrape: metric families (from `# TYPE`) and samples. */
export interface Scrape {
  families: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format (enough of it for assertions in tests). */
export function parseScrape(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      families.set(name, type);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2]!;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { families, samples };
}

/** Sum of the samples of `name` whose labels include `match`. */
export function total(scrape: Scrape, name: string, match: Record<string, string> = {}): number {
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Every series name a scrape exposes, histograms and summaries expanded to their suffixes. */
export function seriesNames(scrape: Scrape): Set<string> {
  const names = new Set(scrape.samples.map((s) => s.name));
  for (const [name, type] of scrape.families) {
    names.add(name);
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}
