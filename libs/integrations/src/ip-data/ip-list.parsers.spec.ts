import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstToken, parseCloudJson } from './ip-list.parsers';

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

describe('cloud ranges JSON', () => {
  it('takes every string under a key ending in "prefix", in file order', () => {
    const parsed = parseCloudJson(
      JSON.stringify({
        prefixes: [{ ip_prefix: '3.5.140.0/22' }, { ip_prefix: 'nonsense' }],
        ipv6_prefixes: [{ ipv6_prefix: '2600:1f14::/35' }],
        other: { name: '10.0.0.0/8' },
      }),
    );
    assert.equal(parsed.lines, 3);
    assert.equal(parsed.invalid, 1);
    assert.equal(parsed.ranges.length, 2);
  });

  it('walks a file nested far deeper than the call stack allows', () => {
    const levels = 200_000;
    const text = `${'{"a":['.repeat(levels)}{"ip_prefix":"3.5.140.0/22"}${']}'.repeat(levels)}`;
    const parsed = parseCloudJson(text);
    assert.equal(parsed.lines, 1);
    assert.equal(parsed.ranges.length, 1);
  });
});
