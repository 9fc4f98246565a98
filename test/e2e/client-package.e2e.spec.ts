import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../../..');
const ROWS = 10_000;
// Spelled in two parts: tsc-alias would rewrite the literal to the monorepo's source path.
const PACKAGE = ['@verity', 'client'].join('/');

/** A consumer outside the repository: ESM, the env variables, one call for the whole job. */
const CONSUMER = `
import { Verity, VerityApiError } from '${PACKAGE}';
const verity = new Verity();
let polls = 0;
const { job, path, bytes } = await verity.batch.run({
  type: 'email',
  file: process.argv[2],
  to: process.argv[3],
  intervalMs: 100,
  onProgress: () => polls++,
});
console.log(JSON.stringify({ id: job.id, status: job.status, total: job.total_rows, path, bytes, polls, errors: typeof VerityApiError }));
`;

/** A TypeScript consumer: the published types must resolve without the monorepo. */
const TYPED_CONSUMER = `
import {
  Verity,
  RateLimitedError,
  type BatchJob,
  type BatchJobList,
  type EmailResult,
} from '${PACKAGE}';
const verity = new Verity({ apiKey: 'vrt_live_x', maxRetries: 1 });
export async function check(): Promise<[BatchJob, EmailResult, number | null, BatchJobList]> {
  const job: BatchJob = await verity.batch.get('job_1');
  const email: EmailResult = await verity.email.validate('a@example.com');
  const e = new RateLimitedError(429, 'rate_limited', 'slow down', null);
  const page: BatchJobList = await verity.batch.list({ limit: 5, status: 'failed' });
  for await (const each of verity.batch.listAll({ pageSize: 10 })) console.log(each.file_name);
  const cancelled: BatchJob = await verity.batch.cancel(job.id);
  await verity.batch.create({ type: 'email', file: 'crm.csv', column: 2, header: false, fields: 'all' });
  return [cancelled, email, e.retryAfterSeconds, page];
}
`;

describe('@verity/client as a packed npm package, installed outside the repository', () => {
  let stack: TestStack;
  let apiKey: string;
  let dir: string;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      modules: [IngestModule, ScorerModule],
    });
    ({ apiKey } = await stack.account(ROWS, 'packed'));
    dir = await mkdtemp(join(tmpdir(), 'verity-client-pack-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  });

  it(`npm pack → npm install (offline) → batch.run on ${ROWS.toLocaleString('en')} rows`, async () => {
    // prepack builds dist/ from the sources, as `npm publish` would.
    const packed = await run('npm', ['pack', '--pack-destination', dir, '--json'], {
      cwd: join(REPO, 'libs/client'),
    });
    const [{ filename, files }] = JSON.parse(packed.stdout) as {
      filename: string;
      files: { path: string }[];
    }[];
    const paths = files.map((f) => f.path);
    assert.ok(paths.includes('dist/client/src/index.d.ts'));
    assert.ok(paths.includes('dist/client/src/cli/main.js'));
    assert.ok(paths.includes('README.md') && paths.includes('LICENSE'));
    assert.equal(paths.filter((p) => p.includes('.spec.')).length, 0, paths.join(' '));

    const app = join(dir, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), '{ "name": "consumer", "private": true }\n');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, filename)], {
      cwd: app,
    });
    assert.deepEqual(await readdir(join(app, 'node_modules')), [
      '.bin',
      '.package-lock.json',
      '@verity',
    ]);
    assert.deepEqual(await readdir(join(app, 'node_modules/.bin')), ['verity']);
    const installed = join(app, 'node_modules/@verity/client');
    const js = (await readdir(join(installed, 'dist'), { recursive: true })).filter((f) =>
      f.endsWith('.js'),
    );
    for (const file of js) {
      const text = await readFile(join(installed, 'dist', file), 'utf8');
      for (const [, spec] of text.matchAll(/require\("([^"]+)"\)/g))
        assert.ok(spec.startsWith('node:') || spec.startsWith('.'), `${file} requires ${spec}`);
    }

    const input = join(dir, 'emails.csv');
    await writeFile(
      input,
      Array.from({ length: ROWS }, (_, i) => `user${i}@example.com\n`),
    );
    await writeFile(join(app, 'run.mjs'), CONSUMER);
    const output = join(dir, 'results.csv');
    const { stdout } = await run(process.execPath, ['run.mjs', input, output], {
      cwd: app,
      env: { PATH: process.env.PATH, VERITY_API_KEY: apiKey, VERITY_URL: stack.client.baseUrl },
    });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(result.status, 'done');
    assert.equal(result.total, ROWS);
    assert.equal(result.path, output);
    assert.equal(result.errors, 'function');
    assert.ok((result.polls as number) >= 1);
    const lines = (await readFile(output, 'utf8')).split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, ROWS + 1);
    assert.match(
      lines[ROWS],
      new RegExp(`^user${ROWS - 1}@example\\.com,true,true,false,\\d+,\\w+,1$`),
    );
    assert.equal(result.bytes, Buffer.byteLength(lines.join('\n') + '\n'));

    // The `verity` command ships as the package's bin: run from the consumer's folder, outside
    // the repository, with no npx in between.
    const cliEnv = {
      PATH: process.env.PATH,
      VERITY_API_KEY: apiKey,
      VERITY_URL: stack.client.baseUrl,
    };
    const verity = join(app, 'node_modules/.bin/verity');
    const ping = await run(verity, ['ping', '--json'], { cwd: app, env: cliEnv });
    assert.equal(JSON.parse(ping.stdout).credits_remaining, 0);
    const help = await run(verity, ['--help'], { cwd: app, env: cliEnv });
    assert.match(help.stdout, /batch run FILE --type email\|phone\|ip/);
    assert.match(help.stdout, /batch list \[--status S\]/);
    assert.match(help.stdout, /batch cancel ID/);
    const list = await run(verity, ['batch', 'list', '--all', '--json'], { cwd: app, env: cliEnv });
    assert.deepEqual(
      (JSON.parse(list.stdout) as { data: { id: string }[] }).data.map((job) => job.id),
      [result.id],
    );
    assert.doesNotMatch(help.stdout, /\bstart\b/);

    await writeFile(join(app, 'typed.ts'), TYPED_CONSUMER);
    await run(
      process.execPath,
      [
        join(REPO, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--typeRoots',
        join(REPO, 'node_modules/@types'),
        '--types',
        'node',
        'typed.ts',
      ],
      { cwd: app },
    );
  });
});
