import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UnprocessableError, Verity } from '@verity/client';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { cli } from './cli-helpers';

const EMAIL_RESULT = 'valid_syntax,mx_found,disposable,score,deliverability,credits_used';
const EMAIL_ALL = 'did_you_mean,role_based,free_provider';
// A CRM export: a quoted cell with a comma in it, and a typo the full fields correct.
const CRM_ROWS = ['"Doe, Jane",jane.doe@example.com,Acme', 'Bob,bob@gmial.com,"Builders, Inc."'];
const CRM = `name,email,company\n${CRM_ROWS.join('\n')}\n`;

/** The result file's lines: each data line must start with its input line as it was. */
function resultLines(text: string): string[] {
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, CRM_ROWS.length + 1, text);
  CRM_ROWS.forEach((row, i) => assert.ok(lines[i + 1].startsWith(`${row},`), lines[i + 1]));
  return lines;
}

describe('multi-column files through @verity/client and verity batch run', () => {
  let stack: TestStack;
  let work: string;
  let crm: string;
  let headerless: string;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      modules: [IngestModule, ScorerModule],
    });
    work = await mkdtemp(join(tmpdir(), 'verity-client-columns-'));
    crm = join(work, 'crm.csv');
    headerless = join(work, 'headerless.csv');
    await writeFile(crm, CRM);
    await writeFile(headerless, `${CRM_ROWS.join('\n')}\n`);
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await stack.close();
  });

  async function account(credits = 100) {
    const { apiKey } = await stack.account(credits, 'columns');
    return {
      env: { VERITY_API_KEY: apiKey, VERITY_URL: stack.client.baseUrl },
      verity: new Verity({ apiKey, baseUrl: stack.client.baseUrl }),
    };
  }

  it('SDK: column by name keeps every input column, fields all adds the full fields; the header is free', async () => {
    const { verity } = await account();
    const { job, csv } = await verity.batch.run({
      type: 'email',
      file: crm,
      column: 'email',
      fields: 'all',
      intervalMs: 20,
    });
    assert.equal(job.total_rows, 2);
    assert.equal(job.file_name, 'crm.csv');
    const lines = resultLines(csv);
    assert.equal(lines[0], `name,email,company,${EMAIL_RESULT},${EMAIL_ALL}`);
    // did_you_mean of bob@gmial.com
    assert.ok(lines[2].includes(',bob@gmail.com,'), lines[2]);
    assert.equal((await verity.ping()).credits_remaining, 98);
  });

  it('SDK: column by 1-based index with header false; every line is a row', async () => {
    const { verity } = await account();
    const { job, csv } = await verity.batch.run({
      type: 'email',
      file: headerless,
      column: 2,
      header: false,
      intervalMs: 20,
    });
    assert.equal(job.total_rows, 2);
    const lines = resultLines(csv);
    assert.equal(lines[0], `column_1,column_2,column_3,${EMAIL_RESULT}`);
  });

  it('SDK: an unknown column is UnprocessableError and charges nothing', async () => {
    const { verity } = await account();
    await assert.rejects(
      verity.batch.create({ type: 'email', file: crm, column: 'mail' }),
      UnprocessableError,
    );
    assert.equal((await verity.ping()).credits_remaining, 100);
  });

  it('CLI: batch run --column --fields all, and --column N --header false', async () => {
    const { env, verity } = await account();
    const byName = await cli(
      [
        'batch',
        'run',
        crm,
        '--type',
        'email',
        '--column',
        'email',
        '--fields',
        'all',
        '--out',
        join(work, 'by-name.csv'),
        '--interval',
        '0.1',
        '--json',
      ],
      env,
    );
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(JSON.parse(byName.stdout).job.total_rows, 2);
    const named = resultLines(await readFile(join(work, 'by-name.csv'), 'utf8'));
    assert.equal(named[0], `name,email,company,${EMAIL_RESULT},${EMAIL_ALL}`);

    const byIndex = await cli(
      [
        'batch',
        'run',
        headerless,
        '--type',
        'email',
        '--column',
        '2',
        '--header',
        'false',
        '--interval',
        '0.1',
      ],
      env,
    );
    assert.equal(byIndex.code, 0, byIndex.stderr);
    assert.match(byIndex.stdout, /headerless-results\.csv {2}\(2 rows, [\d,]+ bytes\)/);
    const indexed = resultLines(await readFile(join(work, 'headerless-results.csv'), 'utf8'));
    assert.equal(indexed[0], `column_1,column_2,column_3,${EMAIL_RESULT}`);
    assert.equal((await verity.ping()).credits_remaining, 96);

    const unknown = await cli(['batch', 'run', crm, '--type', 'email', '--column', 'mail'], env);
    assert.equal(unknown.code, 3, unknown.stderr);
    assert.match(unknown.stderr, /\(unprocessable\)/);
  });
});
