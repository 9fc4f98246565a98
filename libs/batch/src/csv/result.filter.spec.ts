import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { filterResultRows } from './result.filter';
import { VerdictCounter, VerdictFilter, parseOnly } from './result.verdicts';
import { resultColumns } from './result.writer';
import type { EmailFields, IpFields } from '@verity/contracts';

const DELIVERABILITY = ['deliverable', 'risky', 'undeliverable', 'unknown'] as const;

function email(i: number): EmailFields {
  return {
    input: `user${i}@example.com`,
    valid_syntax: true,
    mx_found: i % 3 !== 0,
    disposable: false,
    role_based: false,
    free_provider: false,
    did_you_mean: i % 5 === 0 ? 'a "quoted", suggestion' : null,
    deliverability: DELIVERABILITY[(i * 7) % 4],
    score: i % 100,
  };
}

/** A multi-column email result file (fields=all): input cells with quotes, commas, line breaks. */
function emailFile(rows: number): { header: string; lines: string[]; results: EmailFields[] } {
  const columns = resultColumns('email', 'all', false);
  const results = Array.from({ length: rows }, (_, i) => email(i));
  const lines = results.map(
    (r, i) => `"Name ""${i}"", X","line\r\nbreak\n${i}",${columns.line(r)}`,
  );
  return { header: `name,note,${columns.names.join(',')}\n`, lines, results };
}

/** Streams `file` through the filter in pieces of the given sizes (cycled). */
async function filtered(file: string, filter: VerdictFilter, sizes: number[]): Promise<string> {
  const bytes = Buffer.from(file);
  const pieces: Buffer[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length];
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return text(Readable.from(pieces).pipe(filterResultRows(filter)));
}

describe('downloads filtered by verdict', () => {
  it('keeps the header and exactly the rows of the verdicts, in order, however the bytes arrive', async () => {
    const { header, lines, results } = emailFile(200);
    const file = header + lines.join('');
    const only = new Set(['risky', 'unknown'] as const);
    const expected =
      header +
      lines.filter((_, i) => only.has(results[i].deliverability as 'risky' | 'unknown')).join('');
    assert.ok(expected.length > header.length && expected.length < file.length);
    const filter = new VerdictFilter('email', 'all', only);
    for (const sizes of [[1], [2, 3], [7, 64, 5], [1 << 16]]) {
      assert.equal(await filtered(file, filter, sizes), expected, `pieces ${sizes.join(',')}`);
    }
  });

  it('counts what it keeps: the counter and the filter read a row alike', () => {
    const counter = new VerdictCounter('ip');
    const columns = resultColumns('ip');
    const rows: (IpFields | { invalidIp: string })[] = [
      {
        input: '1.1.1.1',
        country: null,
        city: null,
        asn: null,
        asn_org: 'A, "B"',
        vpn: true,
        proxy: false,
        tor: false,
        datacenter: true,
        abuse_score: 0,
      },
      {
        input: '8.8.8.8',
        country: 'US',
        city: null,
        asn: 1,
        asn_org: null,
        vpn: false,
        proxy: false,
        tor: false,
        datacenter: false,
        abuse_score: 0,
      },
      { invalidIp: 'not-an-ip' },
    ];
    for (const row of rows) counter.count<'ip'>(row);
    assert.deepEqual(counter.summary(), {
      vpn: 1,
      proxy: 0,
      tor: 0,
      datacenter: 1,
      clean: 1,
      invalid: 1,
    });
    const lines = rows.map((r) => columns.line(r));
    const keeps = (verdicts: string) =>
      lines.map((l) => new VerdictFilter('ip', 'spec', parseOnly('ip', verdicts)).keeps(l));
    assert.deepEqual(keeps('vpn'), [true, false, false]);
    assert.deepEqual(keeps('datacenter,clean'), [true, true, false]);
    assert.deepEqual(keeps('invalid'), [false, false, true]);
    const fromLines = new VerdictCounter('ip');
    for (const line of lines) fromLines.countLine(line);
    assert.deepEqual(fromLines.summary(), counter.summary());
  });
});
