import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readChunks, readChunksInto } from '../csv/chunk.reader';
import { SINGLE_COLUMN } from '../csv/table.format';
import { decodeChunk, encodeMessage } from './batch-messages';
import { encodeChunk } from './chunk-message.writer';
import { JsonPairsCollector, JsonRows, JsonRowsCollector } from './json-rows';

const JOB = '6f1c2b8e-0d7a-4b5e-9f00-1a2b3c4d5e6f';

// Values JSON.stringify writes as they are, and values it escapes (quote, backslash, tab and
// other controls inside a value), plus non-ASCII that it must leave alone (U+2028, emoji).
const FILE = [
  'a@x.io',
  '"say ""hi""@x.io"',
  'back\\slash@x.io',
  'tab\tinside@x.io',
  'bell\u0007@x.io',
  '\u{1F600}@m\u00fcnchen.de',
  'line\u2028sep@x.io',
  '  padded@x.io\t',
  '"quoted, comma"',
  '+14155552671',
  '',
  '2001:db8::1',
].join('\r\n');

function parts(bytes: Buffer, size: number): Readable {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return Readable.from(out);
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('encodeChunk', () => {
  it('writes the bytes encodeMessage writes for the same rows, whatever the read size', async () => {
    const bytes = Buffer.from(FILE, 'utf8');
    const expected = (await all(readChunks(parts(bytes, bytes.length), 4))).map((c) =>
      encodeMessage({ v: 1, jobId: JOB, type: 'email', ...c }),
    );
    assert.equal(expected.length, 3);
    for (const size of [1, 2, 3, 7, bytes.length]) {
      const chunks = await all(
        readChunksInto(parts(bytes, size), 4, 0, SINGLE_COLUMN, new JsonRowsCollector()),
      );
      assert.deepEqual(
        chunks.map((c) => encodeChunk(JOB, 'email', c)),
        expected,
        `read size ${size}`,
      );
    }
    const decoded = decodeChunk(expected[0]);
    assert.deepEqual(decoded?.rows, [
      'a@x.io',
      'say "hi"@x.io',
      'back\\slash@x.io',
      'tab\tinside@x.io',
    ]);
  });

  it("marks a test job's chunk with its mode and leaves a live job's bytes as they were", () => {
    const collector = new JsonRowsCollector();
    const b = Buffer.from('deliverable@example.com');
    collector.add(b, 0, b.length);
    const chunk = { chunkNo: 0, firstRow: 1, rows: collector.take() };
    const base = { v: 1 as const, jobId: JOB, type: 'email' as const, chunkNo: 0, firstRow: 1 };
    const rows = ['deliverable@example.com'];
    assert.deepEqual(encodeChunk(JOB, 'email', chunk, 'live'), encodeMessage({ ...base, rows }));
    const test = encodeChunk(JOB, 'email', chunk, 'test');
    const { v, jobId, type, chunkNo, firstRow } = base;
    const marked = { v, jobId, type, mode: 'test' as const, chunkNo, firstRow, rows };
    assert.deepEqual(test, encodeMessage(marked));
    assert.equal(decodeChunk(test)?.mode, 'test');
    assert.equal(decodeChunk(encodeChunk(JOB, 'email', chunk))?.mode, undefined);
  });

  it("marks a chunk of a job that asked for the SMTP probe, and nothing else's", () => {
    const collector = new JsonRowsCollector();
    const b = Buffer.from('jane@example.com');
    collector.add(b, 0, b.length);
    const chunk = { chunkNo: 2, firstRow: 9, rows: collector.take() };
    const rows = ['jane@example.com'];
    const head = { v: 1 as const, jobId: JOB, type: 'email' as const };
    const probed = encodeChunk(JOB, 'email', chunk, 'live', { smtp: true });
    assert.deepEqual(probed, encodeMessage({ ...head, smtp: true, chunkNo: 2, firstRow: 9, rows }));
    assert.equal(decodeChunk(probed)?.smtp, true);
    const plain = encodeChunk(JOB, 'email', chunk, 'live', { smtp: false });
    assert.deepEqual(plain, encodeMessage({ ...head, chunkNo: 2, firstRow: 9, rows }));
  });

  it("carries a phone job's country and country column in the head, and nothing else's", () => {
    const collector = new JsonPairsCollector();
    const [v, l] = [Buffer.from('07400 123456'), Buffer.from('Ann,07400 123456,GB')];
    collector.add(v, 0, v.length, l, 0, l.length);
    const chunk = { chunkNo: 1, firstRow: 4, rows: collector.take() };
    const rows = ['07400 123456', 'Ann,07400 123456,GB'];
    const layout = { lines: true, country: 'GB', countryColumn: 2 };
    const message = encodeChunk(JOB, 'phone', chunk, 'live', layout);
    assert.deepEqual(
      message,
      encodeMessage({
        v: 1,
        jobId: JOB,
        type: 'phone',
        layout: 'lines',
        country: 'GB',
        countryColumn: 2,
        chunkNo: 1,
        firstRow: 4,
        rows,
      }),
    );
    const decoded = decodeChunk(message);
    assert.equal(decoded?.country, 'GB');
    assert.equal(decoded?.countryColumn, 2);
    const none = encodeChunk(JOB, 'phone', chunk, 'live', {
      lines: true,
      country: null,
      countryColumn: null,
    });
    assert.deepEqual(
      none,
      encodeMessage({
        v: 1,
        jobId: JOB,
        type: 'phone',
        layout: 'lines',
        chunkNo: 1,
        firstRow: 4,
        rows,
      }),
    );
    const lower = encodeMessage({
      v: 1,
      jobId: JOB,
      type: 'phone',
      country: 'gb',
      chunkNo: 1,
      firstRow: 4,
      rows: ['1'],
    } as never);
    assert.equal(decodeChunk(lower), null, 'a country that is not upper-case alpha-2 is malformed');
  });

  it('escapes every control character, quote and backslash as JSON.stringify does', () => {
    const values = Array.from({ length: 0x80 }, (_, b) => `a${String.fromCharCode(b)}z`);
    values.push('"\\\u0000\u001f\u007f\u00e9\u2028\u{1F600}"', '\\', '"', 'plain');
    const collector = new JsonRowsCollector();
    for (const v of values) {
      const b = Buffer.from(v, 'utf8');
      collector.add(b, 0, b.length);
    }
    const rows = collector.take();
    assert.equal(rows.json.toString('utf8'), values.map((v) => JSON.stringify(v)).join(','));
  });

  it('slices like an array', () => {
    const collector = new JsonRowsCollector();
    for (const v of ['a', 'b"c', 'd']) {
      const b = Buffer.from(v);
      collector.add(b, 0, b.length);
    }
    const rows: JsonRows = collector.take();
    const text = (r: JsonRows) => JSON.parse(`[${r.json.toString('utf8')}]`) as string[];
    assert.deepEqual(text(rows), ['a', 'b"c', 'd']);
    assert.deepEqual(text(rows.slice(1)), ['b"c', 'd']);
    assert.deepEqual(text(rows.slice(0, 2)), ['a', 'b"c']);
    assert.deepEqual(text(rows.slice(2, 2)), []);
    assert.equal(collector.take().length, 0);
  });

  it('frames collector rows in their own buffer, and copies when that room is used up', () => {
    const collector = new JsonRowsCollector();
    for (const v of ['a@x.io', 'b"c@x.io']) {
      const b = Buffer.from(v);
      collector.add(b, 0, b.length);
    }
    const chunk = { chunkNo: 7, firstRow: 35, rows: collector.take() };
    const expected = encodeMessage({
      v: 1,
      jobId: JOB,
      type: 'email',
      chunkNo: 7,
      firstRow: 35,
      rows: ['a@x.io', 'b"c@x.io'],
    });
    const first = encodeChunk(JOB, 'email', chunk);
    assert.deepEqual(first, expected);
    assert.equal(first.buffer, chunk.rows.json.buffer, 'the first framing copies nothing');
    const second = encodeChunk(JOB, 'email', { ...chunk, chunkNo: 8 });
    assert.notEqual(second.buffer, chunk.rows.json.buffer);
    assert.deepEqual(decodeChunk(second)?.chunkNo, 8);
    assert.deepEqual(first, expected, 'the second framing left the first message alone');
    // The next chunk's rows get a buffer of their own: the first message is not overwritten.
    const b = Buffer.from('z@x.io');
    collector.add(b, 0, b.length);
    const next = encodeChunk(JOB, 'email', { ...chunk, chunkNo: 9, rows: collector.take() });
    assert.deepEqual(decodeChunk(next)?.rows, ['z@x.io']);
    assert.deepEqual(first, expected);
  });

  it('writes a multi-column chunk as value and line pairs, with fields and layout in the head', () => {
    const collector = new JsonPairsCollector();
    const pairs: [string, string][] = [
      ['a@x.io', '"Doe, ""Jane""",a@x.io,Acme'],
      ['', 'Bob,,"line\nbreak"'],
      ['t\tab@x.io', 'x,t\tab@x.io,\\'],
    ];
    for (const [value, line] of pairs) {
      const v = Buffer.from(`<${value}>`);
      const l = Buffer.from(`[${line}]`);
      collector.add(v, 1, v.length - 1, l, 1, l.length - 1);
    }
    const rows = collector.take();
    assert.equal(rows.length, 3);
    const chunk = { chunkNo: 2, firstRow: 6, rows };
    const flat = pairs.flat();
    const message = encodeChunk(JOB, 'email', chunk, 'test', { fields: 'all', lines: true });
    assert.deepEqual(
      message,
      encodeMessage({
        v: 1,
        jobId: JOB,
        type: 'email',
        mode: 'test',
        fields: 'all',
        layout: 'lines',
        chunkNo: 2,
        firstRow: 6,
        rows: flat,
      }),
    );
    const decoded = decodeChunk(message);
    assert.deepEqual(decoded?.rows, ['a@x.io', '', 't\tab@x.io']);
    assert.deepEqual(decoded?.lines, [
      '"Doe, ""Jane""",a@x.io,Acme',
      'Bob,,"line\nbreak"',
      'x,t\tab@x.io,\\',
    ]);
    assert.equal(decoded?.fields, 'all');
    assert.equal(decoded && 'layout' in decoded, false);
    // Halving a chunk keeps each value with its line.
    const second = encodeChunk(JOB, 'ip', { ...chunk, rows: rows.slice(1) }, 'live', {
      lines: true,
    });
    assert.deepEqual(decodeChunk(second)?.lines, ['Bob,,"line\nbreak"', 'x,t\tab@x.io,\\']);
    assert.equal(decodeChunk(second)?.fields, undefined);
  });

  it('leaves the spec chunk as it was for fields=spec, and refuses a lines chunk of odd length', () => {
    const collector = new JsonRowsCollector();
    const b = Buffer.from('1.1.1.1');
    collector.add(b, 0, b.length);
    const chunk = { chunkNo: 0, firstRow: 0, rows: collector.take() };
    const spec = encodeChunk(JOB, 'ip', chunk, 'live', { fields: 'spec', lines: false });
    assert.deepEqual(
      spec,
      encodeMessage({ v: 1, jobId: JOB, type: 'ip', chunkNo: 0, firstRow: 0, rows: ['1.1.1.1'] }),
    );
    assert.equal(decodeChunk(spec)?.lines, undefined);
    const odd = encodeMessage({
      v: 1,
      jobId: JOB,
      type: 'ip',
      layout: 'lines',
      chunkNo: 0,
      firstRow: 0,
      rows: ['1.1.1.1', 'a,1.1.1.1', 'orphan'],
    });
    assert.equal(decodeChunk(odd), null);
  });
});
