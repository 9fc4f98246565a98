/** Writes a result for people (`field  value` lines, nested objects indented) or as JSON. */
export function printResult(value: unknown, json: boolean): void {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : human(value, '') + '\n');
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A piece of `human`'s output: text as is, or a value still to be laid out at an indent. */
type Piece = { text: string } | { value: unknown; indent: string };

/**
 * Lays a value out as `field  value` lines, nested objects indented and list items separated
 * by a blank line. Iterative, with a stack of pieces: the value is a server's answer, and a
 * recursive walk of a deeply nested one would overflow the call stack.
 */
function human(root: unknown, rootIndent: string): string {
  const out: string[] = [];
  const stack: Piece[] = [{ value: root, indent: rootIndent }];
  while (stack.length > 0) {
    const piece = stack.pop()!;
    if ('text' in piece) {
      out.push(piece.text);
      continue;
    }
    const { value, indent } = piece;
    const pieces: Piece[] = [];
    if (Array.isArray(value)) {
      if (value.length === 0) pieces.push({ text: `${indent}(none)` });
      value.forEach((item: unknown, i) => {
        if (i > 0) pieces.push({ text: `\n${indent}\n` });
        pieces.push({ value: item, indent });
      });
    } else if (value === null || typeof value !== 'object') {
      pieces.push({ text: indent + scalar(value) });
    } else {
      const entries = Object.entries(value as Record<string, unknown>);
      const width = Math.max(...entries.map(([k]) => k.length));
      entries.forEach(([key, v], i) => {
        if (i > 0) pieces.push({ text: '\n' });
        if (v !== null && typeof v === 'object') {
          pieces.push({ text: `${indent}${key}:\n` }, { value: v, indent: indent + '  ' });
        } else pieces.push({ text: `${indent}${key.padEnd(width)}  ${scalar(v)}` });
      });
    }
    for (let i = pieces.length - 1; i >= 0; i--) stack.push(pieces[i]);
  }
  return out.join('');
}
