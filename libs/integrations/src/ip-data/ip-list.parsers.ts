import { parseCidr, type IpRange } from '@verity/validation';

/** What a list file parsed into. */
export interface ParsedList {
  readonly ranges: IpRange[];
  readonly asns: number[];
  /** Non-empty, non-comment lines that were not understood. */
  readonly invalid: number;
  readonly lines: number;
}

/** Formats of the open-data files. */
export type ListFormat = 'lines' | 'asn' | 'cloud-json';

/**
 * One CIDR or address per line; `#` and `;` start comments (Tor bulk exit list, X4BNet
 * outputs, FireHOL netsets, Spamhaus DROP all fit). Only the first token of a line counts.
 */
export function parseLineList(text: string): ParsedList {
  const ranges: IpRange[] = [];
  let invalid = 0;
  let lines = 0;
  for (const raw of text.split('\n')) {
    const token = firstToken(raw);
    if (token === '') continue;
    lines++;
    const r = parseCidr(token);
    if (r === null) invalid++;
    else ranges.push(r);
  }
  return { ranges, asns: [], invalid, lines };
}

/** `AS1234 # comment` per line (X4BNet input/*\/ASN.txt). */
export function parseAsnList(text: string): ParsedList {
  const asns: number[] = [];
  let invalid = 0;
  let lines = 0;
  for (const raw of text.split('\n')) {
    const token = firstToken(raw);
    if (token === '') continue;
    lines++;
    const m = /^(?:AS)?(\d{1,10})$/i.exec(token);
    if (m === null) invalid++;
    else asns.push(Number(m[1]));
  }
  return { ranges: [], asns, invalid, lines };
}

/**
 * Cloud providers' published ranges: AWS ip-ranges.json (`ip_prefix`, `ipv6_prefix`) and
 * Google Cloud cloud.json (`ipv4Prefix`, `ipv6Prefix`). Any string under a key ending in
 * "prefix" is taken, so similar feeds work too.
 */
export function parseCloudJson(text: string): ParsedList {
  const ranges: IpRange[] = [];
  let invalid = 0;
  let lines = 0;
  // An explicit stack, not recursion: the file comes from the network, and a recursive walk
  // of a deeply nested one would overflow the call stack. Pushed in reverse to keep file order.
  const stack: [unknown, string][] = [[JSON.parse(text) as unknown, '']];
  while (stack.length > 0) {
    const [v, key] = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], key]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], entries[i][0]]);
    } else if (typeof v === 'string' && /prefix$/i.test(key)) {
      lines++;
      const r = parseCidr(v);
      if (r === null) invalid++;
      else ranges.push(r);
    }
  }
  return { ranges, asns: [], invalid, lines };
}

/** Parses by format; throws on malformed JSON. */
export function parseList(format: ListFormat, text: string): ParsedList {
  switch (format) {
    case 'lines':
      return parseLineList(text);
    case 'asn':
      return parseAsnList(text);
    case 'cloud-json':
      return parseCloudJson(text);
  }
}

/**
 * A download is accepted only if it yields at least one entry and at most 5% of its lines are
 * not understood: an HTML error page or a truncated file must never replace a good list.
 */
export function validateList(parsed: ParsedList): string | null {
  const entries = parsed.ranges.length + parsed.asns.length;
  if (entries === 0) return 'no entries';
  if (parsed.invalid > parsed.lines * 0.05)
    return `${parsed.invalid} of ${parsed.lines} lines invalid`;
  return null;
}

/** JavaScript's `\s`: the separators a line list may use. */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The first whitespace-separated token before any `#` or `;` comment ('' if none). */
export function firstToken(line: string): string {
  const n = line.length;
  let i = 0;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  let j = i;
  while (j < n) {
    const c = line.charCodeAt(j);
    if (c === 35 || c === 59 || isSpace(c)) break;
    j++;
  }
  return line.slice(i, j);
}
