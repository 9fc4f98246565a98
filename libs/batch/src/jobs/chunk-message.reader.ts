const ROWS_KEY = Buffer.from(',"rows":[', 'utf8');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Rows parsed per `JSON.parse` call, in bytes: the string of a slice stays under V8's
 * large-object size (about 128 KiB) even at two bytes per character.
 */
const SLICE_BYTES = 48 * 1024;

/**
 * `JSON.parse` of a chunk message, without turning the whole message into one string. A
 * 10,000-row chunk is about half a megabyte: as one string it is a large object, which V8 maps
 * and unmaps on its own pages for every chunk (docs/benchmarks.md, "Batch engine"). A message laid
 * out as the splitter writes it (`{…,"rows":[…]}`, rows last, no spaces) is parsed as its head
 * and then its rows in slices of about 48 KB, each through `JSON.parse`, which checks every
 * string as before. Anything else is parsed whole. Either way the value, or the SyntaxError,
 * is the one `JSON.parse` gives for the whole message.
 */
export function parseChunkJson(value: Buffer): unknown {
  const parsed = parseInSlices(value);
  return parsed === undefined ? JSON.parse(value.toString('utf8')) : parsed;
}

/**
 * The message parsed slice by slice; undefined when it is not laid out as the splitter writes
 * it (or is not JSON): then `parseChunkJson` parses it whole.
 */
export function parseInSlices(value: Buffer): unknown {
  const at = value.indexOf(ROWS_KEY);
  if (at < 0) return undefined;
  const head = tryParse(`${value.toString('utf8', 0, at)}}`);
  if (typeof head !== 'object' || head === null || Array.isArray(head) || 'rows' in head) {
    return undefined;
  }
  const rows: unknown[] = [];
  let pos = at + ROWS_KEY.length;
  if (value[pos] === CLOSE_BRACKET) pos++;
  else {
    let sliceStart = pos;
    for (;;) {
      if (value[pos] !== QUOTE) return undefined;
      const end = closingQuote(value, pos + 1);
      if (end < 0) return undefined;
      pos = end + 1;
      const next = value[pos];
      if (next !== COMMA && next !== CLOSE_BRACKET) return undefined;
      if (next === CLOSE_BRACKET || pos - sliceStart >= SLICE_BYTES) {
        const slice = tryParse(`[${value.toString('utf8', sliceStart, pos)}]`);
        if (!Array.isArray(slice)) return undefined;
        for (const row of slice) rows.push(row);
        sliceStart = pos + 1;
      }
      pos++;
      if (next === CLOSE_BRACKET) break;
    }
  }
  if (value[pos] !== CLOSE_BRACE || pos + 1 !== value.length) return undefined;
  (head as { rows: unknown[] }).rows = rows;
  return head;
}

/** The quote that ends the string whose body starts at `from`: one after an even run of backslashes. */
function closingQuote(value: Buffer, from: number): number {
  for (let q = value.indexOf(QUOTE, from); q >= 0; q = value.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    while (q - 1 - backslashes >= from && value[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
