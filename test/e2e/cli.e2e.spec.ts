import { createServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobLifecycle } from '@verity/batch';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { BIN, cli, Terminal, type Run } from './cli-helpers';

describe('the verity command (API client)', () => {
  let stack: TestStack;
  let idle: TestStack;
  let dir: string;
  let env: Record<string, string>;
  let emails: string;
  const secrets: string[] = [];

  before(async () => {
    // `stack` processes batch jobs; on `idle` they stay queued (no splitter), for Ctrl-C,
    // timeouts and the active-job limit.
    [stack, idle] = await Promise.all([
      startTestStack({
        env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000', BATCH_CHUNK_ROWS: '250' },
        modules: [IngestModule, ScorerModule],
      }),
      startTestStack({ env: { BATCH_MAX_ACTIVE_JOBS: '1' } }),
    ]);
    const { apiKey } = await stack.account(100_000, 'cli');
    secrets.push(apiKey);
    env = { VERITY_API_KEY: apiKey, VERITY_URL: stack.client.baseUrl };
    dir = await mkdtemp(join(tmpdir(), 'verity-cli-'));
    emails = join(dir, 'emails.csv');
    await writeFile(
      emails,
      Array.from({ length: 5_000 }, (_, i) => `person${i}@example.com\n`),
    );
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await Promise.all([stack.close(), idle.close()]);
  });

  /** An account on `idle` and its environment. */
  async function idleAccount(credits = 10_000) {
    const { apiKey, accountId } = await idle.account(credits, 'idle');
    secrets.push(apiKey);
    return { accountId, env: { VERITY_API_KEY: apiKey, VERITY_URL: idle.client.baseUrl } };
  }

  function neverEchoesKey(run: Run | string): void {
    const text = typeof run === 'string' ? run : run.stdout + run.stderr;
    for (const key of secrets) assert.ok(!text.includes(key), 'the API key was printed');
  }

  it('batch run on a terminal names the job, redraws one progress bar in place and ends at 100 %', async (t) => {
    const term = await Terminal.start(
      ['batch', 'run', emails, '--type', 'email', '--out', 'out.csv', '--interval', '0.1'],
      env,
      dir,
    );
    try {
      assert.equal(await term.exitCode(), 0, await term.screen());
      const screen = await term.screen();
      const bars = screen.split('\n').filter((line) => line.includes('█') || line.includes('░'));
      assert.equal(bars.length, 1, screen);
      assert.match(
        bars[0],
        /^\[█{10,}\] 100% {2}5,000\/5,000 rows {2}(?:[\d,]+|–) rows\/s {2}done/,
      );
      // The job's id on a line of its own above the bar: what `batch get` needs.
      const heading = /^job (job_[0-9a-f]{32}) \(emails\.csv, 5,000 rows\)$/m.exec(screen);
      assert.ok(heading, screen);
      const api = stack.client.withKey(env.VERITY_API_KEY);
      assert.equal((await api.get(`/v1/batch/${heading[1]}`)).body.status, 'done');
      assert.match(screen, /out\.csv {2}\(5,000 rows, [\d,]+ bytes\)/);
      // The raw bytes: every frame starts with CR + erase-line, with no newline in between.
      const raw = await term.raw();
      const frames = raw.split('\r\x1b[2K').slice(1);
      assert.ok(frames.length >= 2, `only ${frames.length} frame(s)`);
      for (const frame of frames.slice(0, -1))
        assert.ok(!frame.includes('\n'), JSON.stringify(frame));
      assert.match(frames[0], /^\[░+\] +0% {2}0\/5,000 rows/);
      neverEchoesKey(raw);
      const result = (await readFile(join(dir, 'out.csv'), 'utf8')).split('\n');
      assert.equal(result.length, 5_002);
      t.diagnostic(`a frame while running: ${frames[Math.floor(frames.length / 2)].trimEnd()}`);
      t.diagnostic(`the last frame: ${bars[0].trimEnd()}`);
    } finally {
      await term.close();
    }
  });

  it('Ctrl-C stops waiting, prints the job id and how to resume, and leaves the job running', async () => {
    const account = await idleAccount();
    const term = await Terminal.start(
      ['batch', 'run', emails, '--type', 'email', '--out', 'later.csv', '--interval', '0.1'],
      account.env,
      dir,
    );
    try {
      await term.waitFor(/0\/5,000 rows/, 'the progress bar');
      await term.pressCtrlC();
      assert.equal(await term.exitCode(), 130);
      const screen = await term.screen();
      const id = /job (job_[0-9a-f]{32}) keeps running/.exec(screen)?.[1];
      assert.ok(id, screen);
      // The hint repeats the command as it was started, never a bare name npx could resolve.
      const verity = `node ${BIN}`;
      assert.ok(screen.replace(/\n/g, '').includes(`  ${verity} batch get ${id}`), screen);
      assert.ok(
        screen.replace(/\n/g, '').includes(`  ${verity} batch download ${id} --out later.csv`),
        screen,
      );
      assert.ok(screen.replace(/\n/g, '').includes(`  ${verity} batch cancel ${id}`), screen);
      const api = idle.client.withKey(account.env.VERITY_API_KEY);
      assert.equal((await api.get(`/v1/batch/${id}`)).body.status, 'queued');
      // The printed cancel command does cancel it.
      const cancel = await cli(['batch', 'cancel', id], account.env);
      assert.equal(cancel.code, 0, cancel.stderr);
      const job = await api.get(`/v1/batch/${id}`);
      assert.equal(job.body.status, 'failed');
      assert.equal(job.body.error.code, 'cancelled');
    } finally {
      await term.close();
    }
  });

  it('without a terminal: one plain line per poll on stderr, --json on stdout', async () => {
    const run = await cli(
      [
        'batch',
        'run',
        emails,
        '--type',
        'email',
        '--out',
        join(dir, 'plain.csv'),
        '--interval',
        '0.1',
        '--json',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const { job, path, bytes } = JSON.parse(run.stdout);
    assert.equal(job.status, 'done');
    assert.equal(path, join(dir, 'plain.csv'));
    assert.equal(bytes, (await readFile(path)).length);
    const lines = run.stderr.trim().split('\n');
    for (const line of lines)
      assert.match(
        line,
        new RegExp(`^${job.id} (queued|processing|done) \\d+% [\\d,]+/5,000 rows`),
      );
    assert.match(lines.at(-1)!, / done 100% 5,000\/5,000 rows .* done$/);
    assert.ok(!run.stderr.includes('\r'));
    neverEchoesKey(run);
  });

  it('every command answers, in JSON with --json and readable text without', async () => {
    const json = async (...args: string[]) => {
      const run = await cli([...args, '--json'], env);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      neverEchoesKey(run);
      return JSON.parse(run.stdout);
    };
    assert.equal((await json('ping')).credits_used, 0);
    assert.equal((await json('email', 'jane.doe@example.com')).valid_syntax, true);
    assert.equal((await json('phone', '07400 123456', '--country', 'GB')).e164, '+447400123456');
    assert.equal((await json('ip', '8.8.8.8')).input, '8.8.8.8');
    const verdict = await json(
      'verify',
      '--email',
      'jane.doe@example.com',
      '--ip',
      '8.8.8.8',
      '--explain',
    );
    assert.ok(Array.isArray(verdict.reasons));
    const created = await json('keys', 'create', 'ci');
    assert.match(created.key, /^vrt_live_/);
    secrets.push(created.key);
    assert.ok((await json('keys', 'list')).data.some((k: { id: string }) => k.id === created.id));
    const rotated = await json('keys', 'rotate', created.id);
    secrets.push(rotated.key);
    assert.deepEqual(await json('keys', 'delete', created.id), { deleted: created.id });
    const test = await json('keys', 'create', 'ci-test', '--mode', 'test');
    assert.match(test.key, /^vrt_test_/);
    assert.equal(test.mode, 'test');
    secrets.push(test.key);
    assert.deepEqual(await json('keys', 'delete', test.id), { deleted: test.id });

    const small = join(dir, 'small.csv');
    await writeFile(small, '1.1.1.1\n8.8.8.8\n');
    const run = await json(
      'batch',
      'run',
      small,
      '--type',
      'ip',
      '--out',
      join(dir, 'small-out.csv'),
      '--interval',
      '0.1',
    );
    assert.equal((await json('batch', 'get', run.job.id)).status, 'done');
    const again = await json('batch', 'download', run.job.id, '--out', join(dir, 'again.csv'));
    assert.equal(await readFile(again.path, 'utf8'), await readFile(run.path, 'utf8'));
    // Without --out: the name the console's download has, the uploaded file's stem + -results.csv.
    const named = await cli(['batch', 'download', run.job.id, '--json'], env, dir);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).path, 'small-results.csv');
    assert.equal(
      await readFile(join(dir, 'small-results.csv'), 'utf8'),
      await readFile(run.path, 'utf8'),
    );

    const human = await cli(['email', 'jane.doe@example.com'], env);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^input +jane\.doe@example\.com$/m);
    assert.match(human.stdout, /^deliverability +\w+$/m);
  });

  it('batch run writes its result next to the input file by default, wherever it runs', async () => {
    const input = join(dir, 'next-to.csv');
    await writeFile(input, '1.1.1.1\n8.8.8.8\n');
    // cli() runs in the repository's folder: the result must not land there.
    const run = await cli(
      ['batch', 'run', input, '--type', 'ip', '--interval', '0.1', '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).path, join(dir, 'next-to-results.csv'));
    assert.equal((await readFile(join(dir, 'next-to-results.csv'), 'utf8')).split('\n').length, 4);
  });

  it('a missing input file and an unreachable server are one sentence each, exit 2 and 7', async () => {
    const missing = join(dir, 'no-such.csv');
    const noFile = await cli(['batch', 'run', missing, '--type', 'email'], env);
    assert.equal(noFile.code, 2);
    assert.equal(noFile.stderr, `verity: ${missing}: no such file\n`);
    assert.equal(noFile.stdout, '');

    // A port nothing listens on: a server that was started and stopped.
    const closed = await new Promise<number>((done) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const url = `http://127.0.0.1:${closed}`;
    const down = await cli(['ping', '--url', url, '--retries', '0'], env);
    assert.equal(down.code, 7);
    assert.equal(
      down.stderr,
      `verity: cannot reach Verity at ${url} (connection refused): check that it is running there, or pass --url / set VERITY_URL\n`,
    );
  });

  it('HLR on a server without a provider: says so at once, no retries, exit 7', async () => {
    const run = await cli(['phone', '+447400123456', '--hlr'], env);
    assert.equal(run.code, 7);
    assert.doesNotMatch(run.stderr, /retry/);
    assert.match(
      run.stderr,
      /^verity: No HLR provider is configured on this server .* \(service_unavailable\) \[request id [^\]]+\]\n$/,
    );
  });

  it('exit codes follow the documented table', async () => {
    const code = async (args: string[], runEnv = env) => {
      const run = await cli(args, runEnv);
      neverEchoesKey(run);
      return run.code;
    };
    assert.equal(await code(['ping']), 0);
    // 2: usage
    assert.equal(await code(['email']), 2);
    assert.equal(await code(['batch', 'run', emails, '--type', 'fax']), 2);
    assert.equal(await code(['ping', '--bogus']), 2);
    assert.equal(await code(['keys', 'create', 'ci', '--mode', 'sandbox']), 2);
    assert.equal(await code(['keys', 'list', '--mode', 'test']), 2);
    assert.equal(await code(['ping'], { VERITY_URL: stack.client.baseUrl }), 2);
    // 3: refused (422, 404)
    assert.equal(await code(['ip', 'not-an-ip']), 3);
    assert.equal(await code(['batch', 'get', 'job_ffffffffffffffffffffffffffffffff']), 3);
    // 4: unauthorized
    assert.equal(await code(['ping', '--key', 'vrt_live_' + 'x'.repeat(24)]), 4);
    // 5: insufficient credits
    const broke = await stack.account(0, 'broke');
    secrets.push(broke.apiKey);
    assert.equal(await code(['email', 'a@example.com', '--key', broke.apiKey]), 5);
    // 6: rate limited (the active-job limit), retries off
    const busy = await idleAccount();
    await idle.app.get(JobLifecycle).create({
      id: `job_${randomBytes(16).toString('hex')}`,
      accountId: busy.accountId,
      keyId: null,
      type: 'email',
      totalRows: 1,
      uploadKey: 'uploads/none.csv',
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    assert.equal(
      await code(['batch', 'run', emails, '--type', 'email', '--retries', '0'], busy.env),
      6,
    );
    // 7: unavailable (503 after retries; no server at all)
    assert.equal(await code(['phone', '+447400123456', '--hlr', '--retries', '0']), 7);
    assert.equal(await code(['ping', '--url', 'http://127.0.0.1:9', '--retries', '0']), 7);
    // 8: the job failed
    const failing = await stack.account(10, 'failing');
    secrets.push(failing.apiKey);
    const jobs = stack.app.get(JobLifecycle);
    const failed = `job_${randomBytes(16).toString('hex')}`;
    await jobs.create({
      id: failed,
      accountId: failing.accountId,
      keyId: null,
      type: 'email',
      totalRows: 2,
      uploadKey: `uploads/${failed}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    await jobs.fail(failed, 'test');
    assert.equal(
      await code([
        'batch',
        'download',
        failed,
        '--key',
        failing.apiKey,
        '--out',
        join(dir, 'failed.csv'),
      ]),
      8,
    );
    // 9: waiting timed out (the job stays queued on `idle`)
    const slow = await idleAccount();
    assert.equal(
      await code(
        [
          'batch',
          'run',
          emails,
          '--type',
          'email',
          '--timeout',
          '0.3',
          '--interval',
          '0.1',
          '--out',
          join(dir, 'never.csv'),
        ],
        slow.env,
      ),
      9,
    );
  });
});
