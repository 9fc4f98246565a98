import assert from 'node:assert/strict';
import { encodeCell } from '@verity/batch';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';

// What the multi-column e2e specs share: a CRM export, the result columns they expect, and the
// stack they run on.

export const EMAIL_RESULT = 'valid_syntax,mx_found,disposable,score,deliverability,credits_used';
export const EMAIL_HEADER = `input,${EMAIL_RESULT}`;
export const EMAIL_ALL = ',did_you_mean,role_based,free_provider';
export const PHONE_HEADER = 'input,valid,e164,country,line_type,carrier,score,credits_used';
export const IP_RESULT =
  'valid,country,city,asn,asn_org,vpn,proxy,tor,datacenter,abuse_score,credits_used';

// A CRM export: a quoted name with a comma, `""` inside a quoted cell, an embedded newline, an
// empty email cell (still a row, scored and charged), cells a spreadsheet would run as formulas.
export const CRM_HEADER = 'name,email,company';
export const CRM_ROWS = [
  '"Doe, Jane",jane.doe@example.com,Acme',
  '"Bob ""The Builder""",temp@mailinator.com,"Builders, Inc."',
  '"Multi\r\nLine",not an email,X',
  'Eve,,Empty Co',
  '=cmd,jane@gmial.com,"=HYPERLINK(""http://evil"")"',
];
export const CRM_VALUES = [
  'jane.doe@example.com',
  'temp@mailinator.com',
  'not an email',
  '',
  'jane@gmial.com',
];
export const NON_EMPTY = CRM_VALUES.filter((v) => v !== '');
export const CRM = `${CRM_HEADER}\r\n${CRM_ROWS.join('\r\n')}\r\n`;

// Over BATCH_MAX_BYTES (4000) in fewer rows than BATCH_MAX_ROWS (20).
export const LARGE = `host,ip,note\n${`h,1.1.1.1,${'x'.repeat(300)}\n`.repeat(15)}`;

export interface Account {
  accountId: string;
  apiKey: string;
}

/** The data lines of a result file (header first), split on the terminator the writer uses. */
export function resultLines(text: string, rows: readonly string[]): string[] {
  assert.ok(text.endsWith('\n'), 'the file ends with a newline');
  // Input lines may hold newlines of their own: cut each expected line off the front.
  const out: string[] = [];
  let rest = text;
  const header = rest.indexOf('\n');
  out.push(rest.slice(0, header));
  rest = rest.slice(header + 1);
  for (const row of rows) {
    assert.ok(rest.startsWith(`${row},`), `a result line starts with its input line: ${row}`);
    const end = rest.indexOf('\n', row.length);
    out.push(rest.slice(0, end));
    rest = rest.slice(end + 1);
  }
  assert.equal(rest, '', 'one result line per input row');
  return out;
}

/** The result cells of a single-column result line (the line without its input cell). */
export function cellsAfterInput(line: string, value: string): string {
  const input = encodeCell(value);
  assert.ok(line.startsWith(`${input},`), line);
  return line.slice(input.length + 1);
}

/** An embedded stack with scorers and small limits (BATCH_MAX_ROWS 20, BATCH_MAX_BYTES 4000). */
export function columnsStack(): Promise<TestStack> {
  return startTestStack({
    env: {
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
      BATCH_CHUNK_ROWS: '2',
      BATCH_MAX_ROWS: '20',
      BATCH_MAX_BYTES: '4000',
      BATCH_MAX_ACTIVE_JOBS: '100',
    },
    modules: [IngestModule, ScorerModule],
  });
}

/** An account's balance, ledger rows and jobs, and every stored upload. */
export async function footprint(stack: TestStack, accountId: string) {
  const [row] = await stack.dataSource.query(
    `SELECT a.credits_balance::int AS balance,
            (SELECT count(*)::int FROM credit_ledger WHERE account_id = a.id) AS ledger,
            (SELECT count(*)::int FROM batch_jobs WHERE account_id = a.id) AS jobs
     FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  const uploads: string[] = [];
  for await (const key of stack.app.get<BlobStore>(BLOB_STORE).list('uploads/')) uploads.push(key);
  return { ...(row as { balance: number; ledger: number; jobs: number }), uploads };
}
