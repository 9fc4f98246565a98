import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Verity, type BatchJob } from '@verity/client';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { partlyScoredJob } from './batch-helpers';
import { cli, type Run } from './cli-helpers';

/** The words of a command line printed by the CLI (plain words or single-quoted ones). */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map(
    (m) => m[2] ?? m[1].replace(/'\\''/g, "'"),
  );
}

describe('verity batch list and cancel, and the upload options of batch run', () => {
  // `stack` processes jobs; on `idle` (no splitter) they stay queued until cancelled.
  let stack: TestStack;
  let idle: TestStack;
  let dir: string;
  const secrets: string[] = [];

  before(async () => {
    const env = { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' };
    [stack, idle] = await Promise.all([
      startTestStack({ env, modules: [IngestModule, ScorerModule] }),
      startTestStack({ env }),
    ]);
    dir = await mkdtemp(join(tmpdir(), 'verity-cli-batch-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await Promise.all([stack.close(), idle.close()]);
  });

  async function account(on: TestStack, credits = 1_000) {
    const { apiKey } = await on.account(credits, 'cli-batch');
    secrets.push(apiKey);
    return {
      env: { VERITY_API_KEY: apiKey, VERITY_URL: on.client.baseUrl },
      verity: new Verity({ apiKey, baseUrl: on.client.baseUrl }),
    };
  }

  function neverEchoesKey(run: Run): void {
    for (const key of secrets)
      assert.ok(!(run.stdout + run.stderr).includes(key), 'the API key was printed');
  }

  async function queued(verity: Verity, name: string, rows: number): Promise<BatchJob> {
    const path = join(dir, name);
    await writeFile(
      path,
      Array.from({ length: rows }, (_, i) => `u${i}@example.com\n`),
    );
    return verity.batch.create({ type: 'email', file: path });
  }

  it('batch list: a table newest first, the command for the next page, --all and --json', async () => {
    const { env, verity } = await account(idle);
    const empty = await cli(['batch', 'list'], env);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'no batch jobs\n');

    const jobs: BatchJob[] = [];
    for (let i = 0; i < 3; i++) jobs.push(await queued(verity, `crm-${i}.csv`, i + 1));
    await verity.batch.cancel(jobs[0].id);

    const page = await cli(['batch', 'list', '--limit', '2'], env);
    assert.equal(page.code, 0, page.stderr);
    neverEchoesKey(page);
    const lines = page.stdout.split('\n');
    assert.match(lines[0], /^ID +FILE +TYPE +STATUS +ROWS +CREATED \(UTC\)$/);
    assert.match(
      lines[1],
      new RegExp(
        `^${jobs[2].id}  crm-2\\.csv  email  queued +0/3 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`,
      ),
    );
    assert.match(lines[2], new RegExp(`^${jobs[1].id}  crm-1\\.csv  email  queued +0/2 `));
    assert.equal(lines[3], '');
    assert.equal(lines[4], 'more jobs: the next page, or --all for every one:');
    // The printed command, run as printed, shows the next page: the cancelled job.
    const next = words(lines[5].trim());
    assert.deepEqual(next.slice(0, 2), ['node', 'bin/verity.js']);
    assert.deepEqual(next.slice(2, 5), ['batch', 'list', '--cursor']);
    assert.deepEqual(next.slice(6), ['--limit', '2']);
    const second = await cli(next.slice(2), env);
    assert.equal(second.code, 0, second.stderr);
    const secondLines = second.stdout.trimEnd().split('\n');
    assert.equal(secondLines.length, 2, second.stdout);
    assert.match(secondLines[1], new RegExp(`^${jobs[0].id}  crm-0\\.csv  email  cancelled  0/1 `));

    const all = await cli(['batch', 'list', '--all', '--limit', '1'], env);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      all.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(' ')[0]),
      [jobs[2].id, jobs[1].id, jobs[0].id],
    );
    assert.doesNotMatch(all.stdout, /more jobs/);

    const json = await cli(['batch', 'list', '--limit', '2', '--json'], env);
    const body = JSON.parse(json.stdout) as { data: BatchJob[]; next_cursor: string };
    assert.deepEqual(
      body.data.map((job) => job.id),
      [jobs[2].id, jobs[1].id],
    );
    assert.equal(body.next_cursor, next[5]);
    const allJson = JSON.parse((await cli(['batch', 'list', '--all', '--json'], env)).stdout);
    assert.equal(allJson.data.length, 3);
    assert.equal(allJson.next_cursor, null);

    const failed = await cli(['batch', 'list', '--status', 'failed', '--json'], env);
    assert.deepEqual(
      JSON.parse(failed.stdout).data.map((job: BatchJob) => job.id),
      [jobs[0].id],
    );
    const done = await cli(['batch', 'list', '--status', 'done'], env);
    assert.equal(done.stdout, 'no done batch jobs\n');
    // The table's word for a cancelled job is a filter too.
    const cancelled = await cli(['batch', 'list', '--status', 'cancelled'], env);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    const cancelledLines = cancelled.stdout.trimEnd().split('\n');
    assert.equal(cancelledLines.length, 2, cancelled.stdout);
    assert.match(
      cancelledLines[1],
      new RegExp(`^${jobs[0].id}  crm-0\\.csv  email  cancelled  0/1 `),
    );

    for (const args of [
      ['--status', 'Cancelled'],
      ['--limit', '0'],
      ['--limit', '101'],
      ['--all', '--cursor', next[5]],
      ['extra'],
    ]) {
      const run = await cli(['batch', 'list', ...args], env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    }
    const badCursor = await cli(['batch', 'list', '--cursor', 'j1.nope'], env);
    assert.equal(badCursor.code, 3);
    assert.match(badCursor.stderr, /cursor is not valid/);
  });

  it('batch cancel: cancelled and refunded, then already cancelled; both exit 0', async () => {
    const { env, verity } = await account(idle, 100);
    const job = await queued(verity, 'mistake.csv', 3);
    assert.equal((await verity.ping()).credits_remaining, 97);

    const first = await cli(['batch', 'cancel', job.id], env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(
      first.stdout,
      `cancelled ${job.id}: 0 of 3 rows were processed; 3 rows refunded\n`,
    );
    neverEchoesKey(first);
    assert.equal((await verity.ping()).credits_remaining, 100);

    const again = await cli(['batch', 'cancel', job.id], env);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      again.stdout,
      `${job.id} was already cancelled: 0 of 3 rows were processed; 3 rows refunded\n`,
    );
    const json = await cli(['batch', 'cancel', job.id, '--json'], env);
    assert.equal(json.code, 0);
    const body = JSON.parse(json.stdout) as BatchJob;
    assert.equal(body.status, 'failed');
    assert.equal(body.error?.code, 'cancelled');
    assert.equal((await verity.ping()).credits_remaining, 100);
  });

  it('batch cancel of a job with scored rows names their download; batch download writes them', async () => {
    const { apiKey, accountId } = await idle.account(100, 'cli-partial');
    secrets.push(apiKey);
    const env = { VERITY_API_KEY: apiKey, VERITY_URL: idle.client.baseUrl };
    const id = `job_${'d'.repeat(31)}1`;
    await partlyScoredJob(idle, accountId, id, 5, [['a@x.io,scored', 'b@x.io,scored']]);
    const cancelled = await cli(['batch', 'cancel', id], env);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.equal(
      cancelled.stdout,
      `cancelled ${id}: 2 of 5 rows were processed; 3 rows refunded\n` +
        `its scored rows: node bin/verity.js batch download ${id}  (writes ${id}-partial.csv)\n`,
    );
    const out = join(dir, 'scored.csv');
    const downloaded = await cli(['batch', 'download', id, '--out', out], env);
    assert.equal(downloaded.code, 0, downloaded.stderr);
    neverEchoesKey(downloaded);
    const bytes = (await readFile(out)).length;
    assert.equal(
      downloaded.stdout,
      `${out}  (${bytes} bytes; the 2 of 5 rows scored before the job was cancelled)\n`,
    );
    const lines = (await readFile(out, 'utf8')).trimEnd().split('\n');
    assert.deepEqual(lines.slice(1), ['a@x.io,scored', 'b@x.io,scored']);
  });

  it('batch cancel of a test job says nothing was charged', async () => {
    const { verity } = await account(idle);
    const test = await verity.keys.create('cli-test', { mode: 'test' });
    secrets.push(test.key);
    const testVerity = new Verity({ apiKey: test.key, baseUrl: idle.client.baseUrl });
    const job = await queued(testVerity, 'test.csv', 2);
    const run = await cli(['batch', 'cancel', job.id], {
      VERITY_API_KEY: test.key,
      VERITY_URL: idle.client.baseUrl,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `cancelled ${job.id}: 0 of 2 rows were processed; a test job: nothing was charged\n`,
    );
  });

  it('batch cancel of a done job, an unknown job, no id: the reason, exit 3, 3 and 2', async () => {
    const { env } = await account(stack);
    const input = join(dir, 'done.csv');
    await writeFile(input, '1.1.1.1\n');
    const run = await cli(
      ['batch', 'run', input, '--type', 'ip', '--interval', '0.1', '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const { job } = JSON.parse(run.stdout) as { job: BatchJob };

    const done = await cli(['batch', 'cancel', job.id], env);
    assert.equal(done.code, 3);
    assert.equal(done.stdout, '');
    assert.match(
      done.stderr,
      new RegExp(
        `^verity: batch job ${job.id} is done: a finished job cannot be cancelled \\(unprocessable\\) \\[request id [^\\]]+\\]\\n$`,
      ),
    );
    const unknown = await cli(['batch', 'cancel', 'job_ffffffffffffffffffffffffffffffff'], env);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /not found \(not_found\)/);
    assert.equal((await cli(['batch', 'cancel'], env)).code, 2);
  });

  it('batch run refuses a wrong --column, --header or --fields before uploading', async () => {
    const { env, verity } = await account(idle);
    const input = join(dir, 'crm.csv');
    await writeFile(input, 'name,email\nJane,jane@example.com\n');
    for (const args of [
      ['--column', '0'],
      ['--column', 'email', '--header', 'yes'],
      ['--header', 'true'],
      ['--fields', 'everything'],
    ]) {
      const run = await cli(['batch', 'run', input, '--type', 'email', ...args], env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
    }
    assert.deepEqual((await verity.batch.list()).data, []);
    const help = await cli(['batch'], env);
    assert.equal(help.code, 2);
    for (const words of [
      '--column C',
      '--header true|false',
      '--fields spec|all',
      'batch list',
      'batch cancel ID',
    ])
      assert.ok(help.stderr.includes(words), `${words}: ${help.stderr}`);
  });

  it('batch run prints the summary under the file; --only keeps those rows; batch get and download show it too', async () => {
    const { env, verity } = await account(stack);
    const input = join(dir, 'phones.csv');
    await writeFile(input, '+14155552671\nabc\n+442071838750\n12\n');
    const out = join(dir, 'valid.csv');
    const run = await cli(
      [
        'batch',
        'run',
        input,
        '--type',
        'phone',
        '--only',
        'valid',
        '--out',
        out,
        '--interval',
        '0.1',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const [written, summary] = run.stdout.trimEnd().split('\n');
    assert.match(written, /valid\.csv {2}\(the valid rows of 4 rows, \d+ bytes\)$/);
    assert.equal(summary, 'summary  2 valid · 2 invalid');
    const kept = (await readFile(out, 'utf8')).trimEnd().split('\n');
    assert.deepEqual(
      kept.map((line) => line.split(',')[0]),
      ['input', '+14155552671', '+442071838750'],
    );

    const [job] = (await verity.batch.list()).data;
    const get = await cli(['batch', 'get', job.id], env);
    assert.match(get.stdout, /summary:\n {2}valid {4}2\n {2}invalid {2}2\n/);
    const again = await cli(['batch', 'download', job.id, '--out', join(dir, 'all.csv')], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /\(\d+ bytes\)\nsummary {2}2 valid · 2 invalid\n$/);
  });

  it('refuses an --only the type does not have before uploading; the server refuses one on download', async () => {
    const { env, verity } = await account(idle);
    const input = join(dir, 'emails.csv');
    await writeFile(input, 'jane@example.com\n');
    for (const only of ['valid', '', 'deliverable,bogus']) {
      const run = await cli(['batch', 'run', input, '--type', 'email', '--only', only], env);
      assert.equal(run.code, 2, `${only}: ${run.stderr}`);
      assert.match(
        run.stderr,
        /--only takes verdicts separated by commas \(email: deliverable, risky, undeliverable, unknown\)/,
      );
    }
    assert.deepEqual((await verity.batch.list()).data, []);
  });
});
