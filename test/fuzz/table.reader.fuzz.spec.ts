import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerityError } from '@verity/common';
import { SINGLE_COLUMN, TableReader, type TableFormat, type UploadLimits } from '@verity/batch';
import { FuzzRandom, fuzzSeed } from './fuzz-random';

/** Files per run (FUZZ_COUNT to change: it counts requests per endpoint in the API suite). */
const COUNT = 5 * Number(process.env.FUZZ_COUNT ?? 1000);

// Pieces the files are made of: the grammar's bytes, names, multi-byte characters, and bytes
// that are not UTF-8 or a BOM.
const PIECES: readonly (string | number[])[] = [
  ',',
  '"',
  '""',
  '\n',
  '\r',
  '\r\n',
  ' ',
  '\t',
  'a',
  'b@x.io',
  'email',
  'E-Mail',
  '7',
  'é',
  '\u{1F600}',
  [0xef, 0xbb, 0xbf],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0x80],
];

const asBuffer = (piece: string | number[]): Buffer =>
  typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece);

/** Records of a common width, of cells made of random pieces, then a few random insertions. */
function file(rnd: FuzzRandom, width: number): Buffer {
  const parts: Buffer[] = [];
  for (let r = 1 + rnd.int(6); r > 0; r--) {
    for (let c = 0; c < width; c++) {
      if (c > 0) parts.push(asBuffer(','));
      const quoted = rnd.chance(0.3);
      if (quoted) parts.push(asBuffer('"'));
      for (let n = rnd.int(3); n > 0; n--) {
        parts.push(
          asBuffer(quoted ? rnd.pick(PIECES.slice(0, 15)) : rnd.pick(PIECES.slice(6, 15))),
        );
      }
      if (quoted) parts.push(asBuffer('"'));
    }
    parts.push(asBuffer(rnd.pick(['\n', '\r\n', '\r', '\n\n'])));
  }
  let buf = Buffer.concat(parts);
  for (let n = rnd.chance(0.5) ? rnd.int(4) : 0; n > 0; n--) {
    const at = rnd.int(buf.length + 1);
    buf = Buffer.concat([buf.subarray(0, at), asBuffer(rnd.pick(PIECES)), buf.subarray(at)]);
  }
  return buf;
}

function format(rnd: FuzzRandom, width: number): TableFormat {
  if (rnd.chance(0.2)) return SINGLE_COLUMN;
  const column = rnd.chance(0.2)
    ? { name: rnd.pick(['email', 'EMAIL', 'a', '7', '']) }
    : { index: rnd.int(rnd.chance(0.9) ? width : width + 2) };
  return { column, header: rnd.pick([true, false, 'auto'] as const) };
}

interface Outcome {
  rows: number;
  values: string[];
  lines: string[];
  header: string | null;
  error: string | null;
}

/** Reads `buf` cut at `cuts`; anything thrown but a 413/422 VerityError fails the test. */
function read(buf: Buffer, cuts: number[], fmt: TableFormat, limits: UploadLimits, listen = true) {
  const out: Outcome = { rows: 0, values: [], lines: [], header: null, error: null };
  const max = limits.maxLineBytes ?? Infinity;
  const reader = new TableReader(
    limits,
    fmt,
    listen
      ? (value, vStart, vEnd, line, lStart, lEnd) => {
          assert.ok(0 <= vStart && vStart <= vEnd && vEnd <= value.length);
          assert.ok(0 <= lStart && lStart <= lEnd && lEnd <= line.length && lEnd - lStart <= max);
          const text = value.toString('utf8', vStart, vEnd);
          assert.ok(!/^[ \t]|[ \t]$/.test(text), 'the value is trimmed');
          const raw = line.toString('utf8', lStart, lEnd);
          assert.ok(!/[\r\n]/.test(raw) || raw.includes('"'), 'line breaks only inside quotes');
          out.values.push(text);
          out.lines.push(raw);
        }
      : undefined,
  );
  try {
    let at = 0;
    for (const cut of [...cuts, buf.length]) {
      reader.write(buf.subarray(at, cut));
      at = cut;
    }
    out.rows = reader.end();
    out.header = reader.header;
    if (listen) assert.equal(out.values.length, out.rows);
  } catch (err) {
    if (
      !(err instanceof VerityError) ||
      !['unprocessable', 'payload_too_large'].includes(err.code)
    ) {
      throw err;
    }
    out.error = err.message;
    out.values = [];
    out.lines = [];
  }
  return out;
}

/**
 * Hostile files from a seeded generator, read as multi-column files or as the single-column file: the reader refuses them only with its
 * 422/413 errors, never crashes, hands out ranges within bounds, and gives the same outcome
 * whatever the chunking and with or without a listener. A failure names the seed:
 * `FUZZ_SEED=<seed> node scripts/run-tests.mjs table.reader.fuzz`.
 */
describe('fuzzed batch files', () => {
  it('are read or refused the same way whatever the chunking', () => {
    const seed = fuzzSeed();
    const rnd = new FuzzRandom(seed);
    let accepted = 0;
    for (let n = 0; n < COUNT; n++) {
      const width = 1 + rnd.int(3);
      const buf = file(rnd, width);
      const fmt = format(rnd, width);
      const limits: UploadLimits = {
        maxRows: rnd.chance(0.2) ? 1 + rnd.int(3) : 1000,
        maxBytes: 1 << 20,
        maxLineBytes: rnd.chance(0.2) ? 1 + rnd.int(24) : undefined,
      };
      const context = `seed ${seed}, file ${n}: ${JSON.stringify(buf.toString('latin1'))}`;
      const whole = read(buf, [], fmt, limits);
      const bytewise = Array.from({ length: Math.max(0, buf.length - 1) }, (_, k) => k + 1);
      const cut = [...new Set([rnd.int(buf.length + 1), rnd.int(buf.length + 1)])].sort(
        (a, b) => a - b,
      );
      assert.deepEqual(read(buf, bytewise, fmt, limits), whole, context);
      assert.deepEqual(read(buf, cut, fmt, limits), whole, context);
      const counted = read(buf, cut, fmt, limits, false);
      assert.deepEqual(
        [counted.rows, counted.header, counted.error],
        [whole.rows, whole.header, whole.error],
        context,
      );
      // A file over the byte limit is never accepted.
      if (buf.length > 0) {
        const small = { ...limits, maxBytes: buf.length - 1 };
        assert.notEqual(read(buf, bytewise, fmt, small).error, null, context);
      }
      if (whole.error === null) accepted++;
    }
    assert.ok(
      accepted > COUNT / 5 && accepted < COUNT * 0.9,
      `${accepted} of ${COUNT} files accepted`,
    );
  });
});
