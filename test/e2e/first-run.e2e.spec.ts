import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  bannerAddress,
  cleanEnv,
  postgresLogOf,
  removeCluster,
  spawnVerity,
  type VerityProcess,
} from './verity-process';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Ctrl-C in the terminal: SIGINT to every process of the foreground job. */
async function pressCtrlC(started: VerityProcess): Promise<void> {
  process.kill(-started.child.pid!, 'SIGINT');
  await started.exited;
}

/**
 * The first run as newcomers do it: a clone into a private directory (0700, owned by root when
 * run as root, as /root is), `npm install`, `npm start`, Ctrl-C, `npm start` again.
 */
describe(
  'first run: clone, npm install, npm start, Ctrl-C, npm start',
  {
    skip:
      !isRoot && !process.env.CI
        ? 'needs root (CI runs as root): the case is root in a 0700 home'
        : false,
  },
  () => {
    let home: string;
    let clone: string;
    const env = (port: number) => cleanEnv({ PORT: String(port) });

    before(async () => {
      home = await mkdtemp(join(tmpdir(), 'verity-first-run-'));
      clone = join(home, 'verity');
    });
    after(async () => {
      await removeCluster(join(clone, '.verity'));
      await rm(home, { recursive: true, force: true });
    });

    it(
      'serves the printed key, stops cleanly on Ctrl-C and keeps the account',
      { timeout: 30 * 60_000 },
      async (t) => {
        const began = Date.now();
        assert.equal((await stat(home)).mode & 0o777, 0o700);
        await run('git', ['clone', '--quiet', process.cwd(), clone]);
        await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
          cwd: clone,
          env: cleanEnv({}),
          maxBuffer: 64 * 1024 * 1024,
        });
        const installed = Date.now();

        const first = spawnVerity('npm', ['start'], { cwd: clone, env: env(await freePort()) });
        const base = await bannerAddress(first);
        const key = /(vrt_live_[0-9A-Za-z]{24})/.exec(first.output())?.[1];
        assert.ok(key, first.output());
        const ping = await fetch(`${base}/v1/ping`, { headers: { 'x-api-key': key } });
        assert.equal(ping.status, 200);
        const account = ((await ping.json()) as { account: { id: string } }).account.id;
        await pressCtrlC(first);

        // The application closed first, then the database, once; no process of the run is left.
        const messages = first
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => (JSON.parse(l) as { msg: string }).msg);
        const closedApp = messages.indexOf(
          'application closed: in-flight chunks and requests finished, offsets committed',
        );
        const closedDb = messages.indexOf('database (embedded PostgreSQL) closed');
        assert.ok(closedApp >= 0 && closedDb > closedApp, first.output());
        assert.equal(messages.filter((m) => m === 'shutting down').length, 1, first.output());
        assert.equal(messages.filter((m) => m === 'shutdown complete').length, 1, first.output());
        const verityHome = join(clone, '.verity');
        const pgLog = await postgresLogOf(verityHome);
        const firstLog = await readFile(pgLog, 'utf8');
        assert.equal(firstLog.match(/database system is shut down/g)?.length, 1, firstLog);
        await assert.rejects(stat(join(verityHome, 'verity.lock')));
        if (isRoot)
          assert.match(
            await readFile(join(verityHome, 'postgres.location'), 'utf8'),
            /^\/var\/lib\/verity\//,
          );

        // Nothing changed since the first start's build: the second start does not build again.
        const built = (await stat(join(clone, 'dist/apps/verity/src/main.js'))).mtimeMs;
        const second = spawnVerity('npm', ['start'], { cwd: clone, env: env(await freePort()) });
        try {
          const again = await bannerAddress(second);
          assert.doesNotMatch(second.output(), /vrt_live_/);
          assert.equal(
            (await stat(join(clone, 'dist/apps/verity/src/main.js'))).mtimeMs,
            built,
            'the second npm start rebuilt an unchanged tree',
          );
          const answer = await fetch(`${again}/v1/ping`, { headers: { 'x-api-key': key } });
          assert.equal(answer.status, 200);
          assert.equal(((await answer.json()) as { account: { id: string } }).account.id, account);
          // A clean shutdown before: no crash recovery on this start.
          const secondLog = (await readFile(pgLog, 'utf8')).slice(firstLog.length);
          assert.match(secondLog, /database system is ready to accept connections/);
          assert.doesNotMatch(
            secondLog,
            /not properly shut down|automatic recovery|interrupted/,
            secondLog,
          );
        } finally {
          await pressCtrlC(second);
        }
        t.diagnostic(
          `first run: clone + npm install ${((installed - began) / 1000).toFixed(0)} s, ` +
            `two starts and stops ${((Date.now() - installed) / 1000).toFixed(0)} s`,
        );
      },
    );
  },
);
