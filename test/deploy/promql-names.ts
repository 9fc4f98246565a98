// A small PromQL reader for dashboard checks: it finds the metric names and label names an
// expression uses. It is not a full parser; it relies on the shapes Grafana panels use
// (aggregations with by/without, functions, binary operators, matchers, ranges).

/** PromQL keywords that look like identifiers but are not metric names. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

const STRING = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
const GROUPING = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;
const MATCHERS = /\{([^}]*)\}/g;
const RANGES = /\[[^\]]*\]/g;
const IDENT = /[a-zA-Z_:][a-zA-Z0-9_:]*/g;

/** What an expression references. */
export interface PromqlRefs {
  readonly metrics: string[];
  readonly labels: string[];
}

/** Extracts metric names (not functions or keywords) and label names from a PromQL expression. */
export function promqlRefs(expr: string): PromqlRefs {
  const labels = new Set<string>();
  // Blank out strings first so label values and regexes cannot look like identifiers.
  let s = expr.replace(STRING, '""');
  s = s.replace(MATCHERS, (_m, body: string) => {
    for (const part of body.split(',')) {
      const name = part.trim().split(/\s*(?:=~|!~|!=|=)\s*/)[0];
      if (name !== undefined && name !== '') labels.add(name);
    }
    return ' ';
  });
  s = s.replace(GROUPING, (_m, list: string) => {
    for (const name of list.split(',')) if (name.trim() !== '') labels.add(name.trim());
    return ' ';
  });
  s = s.replace(RANGES, ' ');
  const metrics = new Set<string>();
  for (const m of s.matchAll(IDENT)) {
    const name = m[0];
    const after = s.slice((m.index ?? 0) + name.length).trimStart();
    if (after.startsWith('(')) continue; // a function call or aggregation
    if (KEYWORDS.has(name.toLowerCase())) continue;
    metrics.add(name);
  }
  return { metrics: [...metrics], labels: [...labels] };
}
