import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordCells } from '@verity/batch';
import { UnprocessableError, ValidationError, Verity } from '@verity/client';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { cli } from './cli-helpers';

// Leads with a country column: a GB mobile, a FR mobile, and a GB mobile whose cell is empty
// (the job's country applies).
const LEADS = 'name,phone,country\nAnn,07400 123456,GB\nBo,06 12 34 56 78,FR\nCy,07400 123456,\n';

/** The `valid` cell of each result line (the column after the input's `skip` cells). */
function validCells(csv: string, skip: number): string[] {
  return csv
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => recordCells(line)[skip]);
}

describe('phone batches with their country through @verity/client and verity batch run', () => {
  let stack: TestStack;
  let work: string;
  let leads: string;
  let national: string;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      modules: [IngestModule, ScorerModule],
    });
    work = await mkdtemp(join(tmpdir(), 'verity-client-country-'));
    leads = join(work, 'leads.csv');
    national = join(work, 'national.csv');
    await writeFile(leads, LEADS);
    await writeFile(national, '07400 123456\n020 7946 0018\n');
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await stack.close();
  });

  async function account(credits = 100) {
    const { apiKey } = await stack.account(credits, 'country');
    return {
      env: { VERITY_API_KEY: apiKey, VERITY_URL: stack.client.baseUrl },
      verity: new Verity({ apiKey, baseUrl: stack.client.baseUrl }),
    };
  }

  it('SDK: countryColumn and countryHint reach the job and parse every row; bad ones are refused', async () => {
    const { verity } = await account();
    const { job, csv } = await verity.batch.run({
      type: 'phone',
      file: leads,
      column: 'phone',
      countryColumn: 'country',
      countryHint: 'GB',
      intervalMs: 100,
    });
    assert.equal(job.country_hint, 'GB');
    assert.equal(job.country_column, 3);
    assert.deepEqual(validCells(csv, 3), ['true', 'true', 'true']);
    assert.equal((await verity.ping()).credits_remaining, 97);

    await assert.rejects(
      verity.batch.create({ type: 'email', file: national, countryHint: 'GB' }),
      (error: unknown) => error instanceof ValidationError && /phone jobs only/.test(error.message),
    );
    await assert.rejects(
      verity.batch.create({ type: 'phone', file: leads, column: 2, countryColumn: 'nation' }),
      UnprocessableError,
    );
    await assert.rejects(
      verity.batch.create({ type: 'phone', file: leads, column: 2, countryColumn: 0 }),
      TypeError,
    );
    assert.equal((await verity.ping()).credits_remaining, 97);
  });

  it('CLI: batch run --country, and --country-column with --column; verify --country', async () => {
    const { env, verity } = await account();
    const hinted = await cli(
      [
        'batch',
        'run',
        national,
        '--type',
        'phone',
        '--country',
        'gb',
        '--interval',
        '0.1',
        '--json',
      ],
      env,
    );
    assert.equal(hinted.code, 0, hinted.stderr);
    assert.equal(JSON.parse(hinted.stdout).job.country_hint, 'GB');
    const single = await readFile(join(work, 'national-results.csv'), 'utf8');
    assert.deepEqual(validCells(single, 1), ['true', 'true']);

    const byColumn = await cli(
      [
        'batch',
        'run',
        leads,
        '--type',
        'phone',
        '--column',
        '2',
        '--country-column',
        'country',
        '--country',
        'GB',
        '--interval',
        '0.1',
        '--json',
      ],
      env,
    );
    assert.equal(byColumn.code, 0, byColumn.stderr);
    assert.equal(JSON.parse(byColumn.stdout).job.country_column, 3);
    const rows = await readFile(join(work, 'leads-results.csv'), 'utf8');
    assert.deepEqual(validCells(rows, 3), ['true', 'true', 'true']);
    assert.equal((await verity.ping()).credits_remaining, 95);

    // A malformed code or option is a usage error (2); a code the server refuses is refused (3).
    for (const args of [
      ['--country', 'GBR'],
      ['--country-column', 'country'],
    ]) {
      const run = await cli(['batch', 'run', national, '--type', 'phone', ...args], env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    }
    const refused = await cli(
      ['batch', 'run', national, '--type', 'phone', '--country', 'ZZ'],
      env,
    );
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /country_hint must be an ISO 3166-1 alpha-2 code/);
    const verified = await cli(
      ['verify', '--phone', '07400 123456', '--country', 'GB', '--json'],
      env,
    );
    assert.equal(verified.code, 0, verified.stderr);
    assert.equal(JSON.parse(verified.stdout).phone.e164, '+447400123456');
    const help = await cli(['batch'], env);
    for (const words of ['--country CC', '--country-column C'])
      assert.ok(help.stderr.includes(words), `${words}: ${help.stderr}`);
    assert.equal((await verity.ping()).credits_remaining, 92);
  });
});
