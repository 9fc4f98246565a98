import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChunkMessage } from '@verity/batch';
import { rowCountries } from './row-country';

const base = { v: 1 as const, jobId: 'job_x', type: 'phone' as const, chunkNo: 0, firstRow: 0 };

describe('rowCountries', () => {
  it("gives every row the job's country_hint without a country column", () => {
    const chunk: ChunkMessage = { ...base, country: 'GB', rows: ['07400 123456', '+1 415'] };
    const of = rowCountries(chunk);
    assert.deepEqual([of(0), of(1)], ['GB', 'GB']);
    assert.equal(rowCountries({ ...base, rows: ['1'] })(0), undefined);
  });

  it("reads each row's cell: empty falls back to the hint, a cell that is no country gives none", () => {
    const lines = [
      'Ann,07400 123456,GB',
      '"Bo, B",06 12 34 56 78, fr ',
      'Cy,07400 123456,',
      'Di,07400 123456,Britain',
      'Ed,07400 123456,"U""K"',
    ];
    const chunk: ChunkMessage = {
      ...base,
      country: 'GB',
      countryColumn: 2,
      rows: lines.map(() => ''),
      lines,
    };
    const of = rowCountries(chunk);
    assert.deepEqual(
      lines.map((_, i) => of(i)),
      ['GB', 'fr', 'GB', undefined, undefined],
    );
  });
});
