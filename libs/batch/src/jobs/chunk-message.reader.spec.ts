import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@verity/testing';
import { encodeMessage } from './batch-messages';
import { parseChunkJson, parseInSlices } from './chunk-message.reader';

/** Pieces rows are drawn from: JSON's own punctuation, escapes, multi-byte and control characters. */
const PIECES = ['a', 'Z', '0', ' ', '@', '"', '\\', ',', '[', ']', '{', '}', ':', '\\"', '\\\\'];
const WIDE = ['é', '漢', '😀', '\n', '\t', '\u0000', '\u2028', '\ud800'];

function row(random: SeededRandom): string {
  let text = '';
  const length = Math.floor(random.next() * 40);
  for (let i = 0; i < length; i++) text += random.pick(random.next() < 0.9 ? PIECES : WIDE);
  return text;
}

function message(random: SeededRandom, rows: number): Buffer {
  return encodeMessage({
    v: 1,
    jobId: `job-${random.seed}`,
    type: 'email',
    chunkNo: Math.floor(random.next() * 100),
    firstRow: 1,
    rows: Array.from({ length: rows }, () => row(random)),
  });
}

/** What JSON.parse of the whole message gives: the value, or the error's class. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

function agrees(value: Buffer, what: string): void {
  assert.deepEqual(
    outcome(() => parseChunkJson(value)),
    outcome(() => JSON.parse(value.toString('utf8'))),
    what,
  );
}

describe('parseChunkJson', () => {
  it("reads the splitter's layout in slices, giving what JSON.parse gives, up to 6,000 rows", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = new SeededRandom(seed);
      const rows = seed <= 4 ? seed - 1 : Math.floor(random.next() * 6_000);
      const value = message(random, rows);
      // Laid out as the splitter writes it: read in slices, not whole.
      const sliced = parseInSlices(value) as { rows: string[] } | undefined;
      assert.equal(sliced?.rows.length, rows, `seed ${seed}`);
      assert.deepEqual(sliced, JSON.parse(value.toString('utf8')), `seed ${seed}`);
      agrees(value, `seed ${seed}, ${rows} rows, ${value.length} bytes`);
    }
  });

  it('agrees with JSON.parse on damaged messages: the same value or the same error', () => {
    const damage = ['"', '\\', ',', ']', '}', ' ', '\u0001', 'x', '[', '{'];
    for (let seed = 100; seed < 700; seed++) {
      const random = new SeededRandom(seed);
      const whole = message(random, 1 + Math.floor(random.next() * 3_000));
      const at = Math.floor(random.next() * whole.length);
      const insert = Buffer.from(random.pick(damage), 'utf8');
      const variants = [
        Buffer.concat([whole.subarray(0, at), insert, whole.subarray(at)]),
        Buffer.concat([whole.subarray(0, at), whole.subarray(at + 1)]),
        whole.subarray(0, at),
      ];
      variants.forEach((value, i) => agrees(value, `seed ${seed}, damage ${i} at ${at}`));
    }
  });

  it('reads messages laid out otherwise (spaces, rows not last, a second rows key) whole', () => {
    const layouts = [
      '{ "v": 1, "jobId": "j", "type": "email", "chunkNo": 0, "firstRow": 1, "rows": ["a", "b"] }',
      '{"rows":["a"],"v":1,"jobId":"j","type":"email","chunkNo":0,"firstRow":1}',
      '{"v":1,"rows":["x"],"jobId":"j","type":"email","chunkNo":0,"firstRow":1,"rows":["a"]}',
      '{"v":1,"jobId":"j","type":"email","chunkNo":0,"firstRow":1,"rows":["a"]} ',
      '{"v":1,"jobId":"j,\\"rows\\":[","type":"email","chunkNo":0,"firstRow":1,"rows":["a"]}',
      '[{"v":1,"rows":["a"]}]',
    ];
    for (const text of layouts) agrees(Buffer.from(text, 'utf8'), text);
  });
});
