import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EmailFields, IpFields, PhoneFields } from '@verity/contracts';
import { csvHeader, formatResultRow } from './result.writer';
import { encodeCell, neutralizeFormula } from './csv.cell';

const email = (input: string): EmailFields => ({
  input,
  valid_syntax: true,
  mx_found: false,
  disposable: false,
  role_based: false,
  free_provider: true,
  did_you_mean: null,
  deliverability: 'risky',
  score: 0.5,
});

describe('csvHeader', () => {
  it('has the spec email columns, in order', () => {
    assert.equal(
      csvHeader('email'),
      'input,valid_syntax,mx_found,disposable,score,deliverability,credits_used\n',
    );
  });

  it('has the documented phone and ip columns', () => {
    assert.equal(
      csvHeader('phone'),
      'input,valid,e164,country,line_type,carrier,score,credits_used\n',
    );
    assert.equal(
      csvHeader('ip'),
      'input,valid,country,city,asn,asn_org,vpn,proxy,tor,datacenter,abuse_score,credits_used\n',
    );
  });
});

describe('formatResultRow', () => {
  it('writes an email row with booleans as true/false', () => {
    assert.equal(
      formatResultRow('email', email('a@x.io')),
      'a@x.io,true,false,false,0.5,risky,1\n',
    );
  });

  it('writes a phone row with nulls as empty cells', () => {
    const phone: PhoneFields = {
      input: '+1 (415) 555-2671',
      valid: true,
      e164: '+14155552671',
      country: 'US',
      line_type: 'mobile',
      carrier: null,
      hlr: null,
      score: 0.9,
    };
    assert.equal(
      formatResultRow('phone', phone),
      '+1 (415) 555-2671,true,+14155552671,US,mobile,,0.9,1\n',
    );
  });

  it('writes an ip row, quoting a cell with a comma', () => {
    const ip: IpFields = {
      input: '8.8.8.8',
      country: 'US',
      city: null,
      asn: 15169,
      asn_org: 'Google, LLC',
      vpn: false,
      proxy: false,
      tor: false,
      datacenter: true,
      abuse_score: 0,
    };
    assert.equal(
      formatResultRow('ip', ip),
      '8.8.8.8,true,US,,15169,"Google, LLC",false,false,false,true,0,1\n',
    );
  });

  it('writes a row with valid=false and empty fields for an input that is not an IP', () => {
    assert.equal(formatResultRow('ip', { invalidIp: 'not-an-ip' }), 'not-an-ip,false,,,,,,,,,,1\n');
    const cells = formatResultRow('ip', { invalidIp: 'x' }).trimEnd().split(',');
    assert.equal(cells.length, csvHeader('ip').trimEnd().split(',').length);
  });

  it('quotes commas, quotes, CR and LF per RFC 4180', () => {
    assert.equal(
      formatResultRow('email', email('"john doe"@x.io')).split(',')[0],
      '"""john doe""@x.io"',
    );
    assert.equal(encodeCell('a,b'), '"a,b"');
    assert.equal(encodeCell('a\nb'), '"a\nb"');
    assert.equal(encodeCell('a\rb'), '"a\rb"');
    assert.equal(encodeCell('plain'), 'plain');
  });
});

describe('formula injection', () => {
  it('prefixes a single quote to formula-looking text', () => {
    assert.equal(
      neutralizeFormula('=HYPERLINK("http://evil","x")'),
      `'=HYPERLINK("http://evil","x")`,
    );
    assert.equal(neutralizeFormula('@SUM(1)'), `'@SUM(1)`);
    assert.equal(neutralizeFormula(`+1+cmd|' /C calc'!A0`), `'+1+cmd|' /C calc'!A0`);
    assert.equal(neutralizeFormula('-2+3'), `'-2+3`);
    assert.equal(neutralizeFormula('\t=1'), `'\t=1`);
    assert.equal(neutralizeFormula('\r=1'), `'\r=1`);
    assert.equal(neutralizeFormula('=1'), `'=1`);
  });

  it('leaves numbers and phone numbers alone', () => {
    for (const value of ['+14155552671', '-1', '+1 (415) 555-2671', '-0.5', '+44 20 7946 0958']) {
      assert.equal(neutralizeFormula(value), value);
    }
    for (const value of ['a@x.io', '1.1.1.1', '', 'x=1', 'a-b']) {
      assert.equal(neutralizeFormula(value), value);
    }
  });

  it('neutralizes then quotes the echoed input of a row', () => {
    assert.equal(
      formatResultRow('email', email('=HYPERLINK("http://evil","x")')),
      `"'=HYPERLINK(""http://evil"",""x"")",true,false,false,0.5,risky,1\n`,
    );
    assert.ok(formatResultRow('email', email('@SUM(1)')).startsWith(`'@SUM(1),`));
    assert.ok(formatResultRow('phone', phoneOf('+14155552671')).startsWith('+14155552671,'));
  });
});

function phoneOf(input: string): PhoneFields {
  return {
    input,
    valid: true,
    e164: input,
    country: 'US',
    line_type: 'unknown',
    carrier: null,
    hlr: null,
    score: 0,
  };
}
