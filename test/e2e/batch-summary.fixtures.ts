import assert from 'node:assert/strict';

// What the summary specs share: inputs with rows of every verdict, and the verdicts of a result
// file read the way a customer's program would (its own CSV parse, columns by header name).

export const EMAIL_VALUES = [
  'jane.doe@example.com',
  'temp@mailinator.com',
  'not an email',
  'jane@gmial.com',
  'info@example.com',
  '@nobody',
  'bob@example.org',
  'x@localhost',
];

export const PHONE_VALUES = [
  '+14155552671',
  'abc',
  '+442071838750',
  '12',
  '+4915123456789',
  '000',
  '+33612345678',
];

// 2.26.157.0/24 is on the bundled VPN list and 1.12.0.0/14 on the datacenter list (data/ip/x4bnet).
export const IP_VALUES = [
  '8.8.8.8',
  'not-an-ip',
  '2.26.157.10',
  '1.12.0.1',
  '10.0.0.1',
  '2001:4860:4860::8888',
  '1.1.1.1',
];

/** A result file split into its records (each with its line end), the header apart. */
export interface FileRows {
  header: string;
  names: string[];
  rows: string[];
}

/** Splits a CSV text into records (line ends inside quotes belong to the record). */
function records(text: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '\n' && !quoted) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  assert.equal(start, text.length, 'the file ends with a line end');
  return out;
}

/** The cells of one record. */
function cells(record: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  const body = record.replace(/\n$/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

export function fileRows(text: string): FileRows {
  const [header, ...rows] = records(text);
  return { header, names: cells(header), rows };
}

/** The verdicts of one row (docs/batch.md, "Summary"), its columns found by header name. */
function verdictsOf(type: string, names: string[], row: string): string[] {
  const values = cells(row);
  assert.equal(values.length, names.length, row);
  const cell = (name: string) => values[names.lastIndexOf(name)];
  switch (type) {
    case 'email':
      return [cell('deliverability')];
    case 'phone':
      return [cell('valid') === 'true' ? 'valid' : 'invalid'];
    default: {
      if (cell('valid') !== 'true') return ['invalid'];
      const flags = ['vpn', 'proxy', 'tor', 'datacenter'].filter((f) => cell(f) === 'true');
      return flags.length > 0 ? flags : ['clean'];
    }
  }
}

const VERDICTS: Record<string, string[]> = {
  email: ['deliverable', 'risky', 'undeliverable', 'unknown'],
  phone: ['valid', 'invalid'],
  ip: ['vpn', 'proxy', 'tor', 'datacenter', 'clean', 'invalid'],
};

/** The summary a result file calls for: its rows counted by verdict, every verdict present. */
export function expectedSummary(type: string, text: string): Record<string, number> {
  const { names, rows } = fileRows(text);
  const counts = Object.fromEntries(VERDICTS[type].map((v) => [v, 0]));
  for (const row of rows) for (const v of verdictsOf(type, names, row)) counts[v]++;
  return counts;
}

/** The rows of a file a download with `only` keeps, in file order. */
export function keptRows(type: string, file: FileRows, only: readonly string[]): string[] {
  return file.rows.filter((row) => verdictsOf(type, file.names, row).some((v) => only.includes(v)));
}
