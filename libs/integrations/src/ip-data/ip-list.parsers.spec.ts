import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstToken } from './ip-list.parsers';

describe('list line tokens', () => {
  it('firstToken matches strip-comment + trim + split(/\\s+/)', () => {
    const reference = (line: string): string => {
      const cut = Math.min(
        ...[line.indexOf('#'), line.indexOf(';'), line.length].filter((i) => i >= 0),
      );
      return line.slice(0, cut).trim().split(/\s+/)[0] ?? '';
    };
    const samples = [
      '1.2.3.4',
      '  1.2.3.0/24  # home',
      '1.2.3.4#x',
      '; comment',
      '\t2001:db8::/32\r',
      '\u00a01.1.1.1\u2003tail',
      'AS13335 # Cloudflare',
      '\u0001odd',
      '',
      '   ',
    ];
    for (const s of samples) assert.equal(firstToken(s), reference(s), JSON.stringify(s));
  });
});
