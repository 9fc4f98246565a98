import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EmailFields, IpFields, PhoneFields } from '@verity/contracts';
import { csvHeader, formatResultRow, resultColumns } from './result.writer';
import { resultHeader } from './result.header';
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

const IP: IpFields = {
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

describe('resultColumns', () => {
  it('gives the spec columns for fields=spec, with and without input', () => {
    for (const type of ['email', 'phone', 'ip'] as const) {
      const spec = csvHeader(type).trimEnd().split(',');
      assert.deepEqual(resultColumns(type).names, spec);
      assert.deepEqual(resultColumns(type, 'spec', true).names, spec);
      assert.deepEqual(resultColumns(type, 'spec', false).names, spec.slice(1));
      assert.equal(spec[0], 'input');
    }
  });

  it('adds did_you_mean, role_based and free_provider after the spec email columns', () => {
    assert.deepEqual(resultColumns('email', 'all').names, [
      'input',
      'valid_syntax',
      'mx_found',
      'disposable',
      'score',
      'deliverability',
      'credits_used',
      'did_you_mean',
      'role_based',
      'free_provider',
    ]);
    const row = { ...email('a@gmial.com'), did_you_mean: 'a@gmail.com', role_based: true };
    assert.equal(
      resultColumns('email', 'all').line(row),
      'a@gmial.com,true,false,false,0.5,risky,1,a@gmail.com,true,true\n',
    );
    assert.equal(
      resultColumns('email', 'all', false).line(row),
      'true,false,false,0.5,risky,1,a@gmail.com,true,true\n',
    );
    assert.equal(resultColumns('email', 'all').line(email('b@x.io')).split(',')[7], '');
  });

  it('has nothing to add for phone (no HLR in batch) and ip (the file has every field)', () => {
    for (const type of ['phone', 'ip'] as const) {
      assert.deepEqual(resultColumns(type, 'all').names, resultColumns(type, 'spec').names);
      assert.deepEqual(
        resultColumns(type, 'all', false).names,
        resultColumns(type, 'spec', false).names,
      );
    }
    assert.equal(
      resultColumns('phone', 'all', false).line(phoneOf('+14155552671')),
      'true,+14155552671,US,unknown,,0,1\n',
    );
  });

  it('writes the cells of every variant without the input cell', () => {
    assert.equal(
      resultColumns('ip', 'spec', false).line(IP),
      'true,US,,15169,"Google, LLC",false,false,false,true,0,1\n',
    );
    assert.equal(
      resultColumns('email', 'spec', false).line(email('=1@x.io')),
      'true,false,false,0.5,risky,1\n',
    );
  });

  it('writes the invalid-IP row in every variant', () => {
    for (const fields of ['spec', 'all'] as const) {
      const withInput = resultColumns('ip', fields, true);
      assert.equal(withInput.line({ invalidIp: 'nope' }), 'nope,false,,,,,,,,,,1\n');
      const without = resultColumns('ip', fields, false);
      assert.equal(without.line({ invalidIp: 'nope' }), 'false,,,,,,,,,,1\n');
      assert.equal(without.line({ invalidIp: '' }).split(',').length, without.names.length);
    }
    assert.equal(
      resultColumns('ip', 'spec', true).line({ invalidIp: '=cmd' }),
      "'=cmd,false,,,,,,,,,,1\n",
    );
  });
});

describe('resultHeader', () => {
  it('is the standard (fields=spec) header for a single-column job', () => {
    for (const type of ['email', 'phone', 'ip'] as const) {
      assert.equal(resultHeader({ type, fields: 'spec', input: null }), csvHeader(type));
    }
    assert.equal(
      resultHeader({ type: 'email', fields: 'all', input: null }),
      'input,valid_syntax,mx_found,disposable,score,deliverability,credits_used,did_you_mean,role_based,free_provider\n',
    );
  });

  it('keeps the input header record as uploaded, then the result columns without input', () => {
    const header = '"Name, full",email,company';
    assert.equal(
      resultHeader({ type: 'email', fields: 'spec', input: { header, width: 3 } }),
      `${header},valid_syntax,mx_found,disposable,score,deliverability,credits_used\n`,
    );
  });

  it('names the input columns column_1 … column_W when the file had no header', () => {
    assert.equal(
      resultHeader({ type: 'ip', fields: 'all', input: { header: null, width: 2 } }),
      'column_1,column_2,valid,country,city,asn,asn_org,vpn,proxy,tor,datacenter,abuse_score,credits_used\n',
    );
  });

  it('prefixes verity_ to a result column an input column already names, in any case', () => {
    assert.equal(
      resultHeader({
        type: 'phone',
        fields: 'spec',
        input: { header: 'Country,phone, Score ,verity_score', width: 4 },
      }),
      'Country,phone, Score ,verity_score,valid,e164,verity_country,line_type,carrier,verity_verity_score,credits_used\n',
    );
    // Compared with the header's cells as the reader reads them: unquoted, `""` unescaped.
    assert.equal(
      resultHeader({
        type: 'ip',
        fields: 'spec',
        input: { header: '"Score, final"," ASN ","say ""hi""",ip', width: 4 },
      }),
      '"Score, final"," ASN ","say ""hi""",ip,valid,country,city,verity_asn,asn_org,vpn,proxy,tor,datacenter,abuse_score,credits_used\n',
    );
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
