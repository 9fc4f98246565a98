/**
 * What `verity start` prints once it listens: labelled rows (address, docs, data directory…)
 * and free-text blocks (the first run's API key), then "Ctrl-C to stop". Other features add
 * their own rows or blocks before it is printed.
 */
export class StartBanner {
  private readonly rows: [label: string, value: string][] = [];
  private readonly blocks: string[][] = [];

  constructor(private readonly headline: string) {}

  /** A `label  value` row, aligned with the others. */
  row(label: string, value: string): this {
    this.rows.push([label, value]);
    return this;
  }

  /** A paragraph after the rows; its lines are printed as given, indented. */
  block(...lines: string[]): this {
    this.blocks.push(lines);
    return this;
  }

  render(): string {
    const width = Math.max(0, ...this.rows.map(([label]) => label.length));
    const out = ['', `  ${this.headline}`, ''];
    for (const [label, value] of this.rows) out.push(`    ${label.padEnd(width)}  ${value}`);
    for (const block of this.blocks) out.push('', ...block.map((line) => `  ${line}`.trimEnd()));
    out.push('', '  Ctrl-C to stop.', '', '');
    return out.join('\n');
  }
}
