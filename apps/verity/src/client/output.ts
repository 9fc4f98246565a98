/** Writes a result for people (`field  value` lines, nested objects indented) or as JSON. */
export function printResult(value: unknown, json: boolean): void {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : human(value, '') + '\n');
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function human(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}(none)`;
    return value.map((item) => human(item, indent)).join(`\n${indent}\n`);
  }
  if (value === null || typeof value !== 'object') return indent + scalar(value);
  const entries = Object.entries(value as Record<string, unknown>);
  const width = Math.max(...entries.map(([k]) => k.length));
  return entries
    .map(([key, v]) =>
      v !== null && typeof v === 'object'
        ? `${indent}${key}:\n${human(v, indent + '  ')}`
        : `${indent}${key.padEnd(width)}  ${scalar(v)}`,
    )
    .join('\n');
}
