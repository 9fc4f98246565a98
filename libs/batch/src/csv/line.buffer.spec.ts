import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineBuffer } from './line.buffer';

function collect(lines: readonly string[]): Buffer {
  const buffer = new LineBuffer();
  for (const line of lines) buffer.push(line);
  return buffer.toBuffer();
}

describe('LineBuffer', () => {
  it('holds exactly the UTF-8 of the lines joined, across many pieces', () => {
    // 20,000 lines of about 90 bytes: about 28 pieces of 64 KiB.
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `user${i}@example.com,true,true,false,${i % 100},deliverable,1\n`,
    );
    assert.deepEqual(collect(lines), Buffer.from(lines.join(''), 'utf8'));
  });

  it('encodes characters of two, three and four bytes, also where a piece is nearly full', () => {
    const wide = ['é', '€', '漢', '😀', 'a'];
    const lines = Array.from({ length: 12_000 }, (_, i) => {
      const cell = wide[i % wide.length].repeat(1 + (i % 7));
      return `"${cell}",${i}\n`;
    });
    assert.deepEqual(collect(lines), Buffer.from(lines.join(''), 'utf8'));
  });

  it('takes a line longer than a piece, and gives an empty buffer for no lines', () => {
    const long = `${'x'.repeat(200_000)}\n`;
    const lines = ['first\n', long, 'last\n'];
    assert.deepEqual(collect(lines), Buffer.from(lines.join(''), 'utf8'));
    assert.equal(collect([]).length, 0);
  });
});
