import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConsoleClient, freePort, startTestDns } from '@verity/testing';
import {
  bannerAddress,
  cleanEnv,
  removeCluster,
  spawnVerity,
  type VerityProcess,
} from './verity-process';

const run = promisify(execFile);

/** `verity start` on `home`, logging JSON at debug so a test can act at a given step. */
function startVerity(home: string, env: Record<string, string> = {}): VerityProcess {
  return spawnVerity(process.execPath, ['bin/verity.js', 'start'], {
    cwd: process.cwd(),
    env: cleanEnv({ VERITY_HOME: home, PORT: '0', LOG_LEVEL: 'debug', ...env }),
  });
}

/** Resolves once the process has logged `message`; rejects if it exits first. */
function logged(started: VerityProcess, message: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (started.output().includes(`"msg":"${message}"`)) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    void started.exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`exited with ${code} before "${message}":\n${started.output()}`));
    });
  });
}

/** True while any process on the machine runs with `dataDir` on its command line. */
async function postgresRunningOn(dataDir: string): Promise<boolean> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(dataDir)) return true;
  }
  return false;
}

/** The embedded cluster's data directory of VERITY_HOME `home` (inside it, or where it points as root). */
async function clusterDir(home: string): Promise<string> {
  const pointer = await readFile(join(home, 'postgres.location'), 'utf8').catch(() => null);
  return pointer ? pointer.trim() : join(home, 'postgres');
}

/** One GET /healthz with no timeout on a connection made now; its status line once answered. */
function requestWithoutTimeout(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.once('error', () => resolve(null)); // refused: nothing listened yet
    socket.once('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.once('end', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

describe('`verity start` interrupted, polled or stopped while it starts', () => {
  let root: string;
  let dns: Awaited<ReturnType<typeof startTestDns>>;
  const homes: string[] = [];
  const home = (name: string) => {
    const dir = join(root, name);
    homes.push(dir);
    return dir;
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'verity-start-interrupted-'));
    dns = await startTestDns();
  });
  after(async () => {
    await dns.server.stop();
    for (const dir of homes) await removeCluster(dir);
    await rm(root, { recursive: true, force: true });
  });

  it('a client connecting all through the start never holds it back, and its request is answered', async () => {
    const port = await freePort();
    const started = startVerity(home('polled'), {
      PORT: String(port),
      DNS_SERVERS: dns.servers,
    });
    let bannerOut = false;
    const requests: { early: boolean; answer: Promise<string | null> }[] = [];
    const poller = setInterval(
      () => requests.push({ early: !bannerOut, answer: requestWithoutTimeout(port) }),
      100,
    );
    try {
      const base = await bannerAddress(started);
      bannerOut = true;
      assert.equal(base, `http://127.0.0.1:${port}`);
    } finally {
      clearInterval(poller);
    }
    const answers = await Promise.all(
      requests.map(async (r) => ({ early: r.early, status: await r.answer })),
    );
    const heldThrough = answers.filter((a) => a.early && a.status !== null);
    assert.ok(heldThrough.length > 0, 'some connection was made while the service started');
    for (const answer of answers.filter((a) => a.status !== null))
      assert.equal(answer.status, 'HTTP/1.1 200 OK');
    started.child.kill('SIGTERM');
    assert.equal(await started.exited, 0, started.output());
  });

  const points = [
    { step: 'before PostgreSQL', message: 'starting the embedded PostgreSQL' },
    { step: 'during the migrations', message: 'opening the database and applying migrations' },
    { step: 'after the dev account', message: 'dev account ready' },
  ];
  for (const { step, message } of points) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`${signal} ${step} ends the process and the PostgreSQL it started`, async () => {
        const dir = home(`${signal}-${step.replace(/ /g, '-')}`);
        const started = startVerity(dir, { DNS_SERVERS: dns.servers });
        await logged(started, message);
        // SIGINT as Ctrl-C sends it, to the whole foreground job; SIGTERM as a supervisor does.
        if (signal === 'SIGINT') process.kill(-started.child.pid!, signal);
        else started.child.kill(signal);
        assert.equal(await started.exited, 0, started.output());
        // Caught while starting, or (the step's last line came just before the listen) by the
        // running service's own handler: either way a clean stop.
        assert.match(started.output(), /stopped while starting|"shutdown complete"/);
        assert.equal(
          await postgresRunningOn(await clusterDir(dir)),
          false,
          `a PostgreSQL of ${dir} is still running`,
        );
        await assert.rejects(stat(join(dir, 'verity.lock')), 'the data directory lock is left');
      });
    }
  }

  it('a first start killed after the dev account was made is followed by one that shows a working key and link', async () => {
    const dir = home('killed-first-run');
    const first = startVerity(dir, { DNS_SERVERS: dns.servers });
    await logged(first, 'dev account ready');
    process.kill(-first.child.pid!, 'SIGKILL');
    await first.exited;
    assert.doesNotMatch(first.output(), /vrt_live_/);

    const second = startVerity(dir, { DNS_SERVERS: dns.servers, LOG_LEVEL: 'warn' });
    let shown: string;
    try {
      const base = await bannerAddress(second);
      assert.match(second.output(), /stopped before it showed the dev account its key/);
      const key = /(vrt_live_[0-9A-Za-z]{24})/.exec(second.output())?.[1];
      assert.ok(key, second.output());
      shown = key;
      const ping = await fetch(`${base}/v1/ping`, { headers: { 'x-api-key': key } });
      assert.equal(ping.status, 200);
      const { account } = (await ping.json()) as { account: { id: string; name: string } };
      assert.equal(account.name, 'dev');
      const link = /(http:\S+\/console\/sign-in#token=\S+)/.exec(second.output())?.[1];
      assert.ok(link, second.output());
      const redeemed = await new ConsoleClient(base).redeem(link);
      assert.equal(redeemed.status, 200);
      assert.equal((redeemed.body as { account_id: string }).account_id, account.id);
    } finally {
      second.child.kill('SIGTERM');
      assert.equal(await second.exited, 0, second.output());
    }

    // Shown once: the next start prints no key, and the operator commands recover one.
    const third = startVerity(dir, { DNS_SERVERS: dns.servers, LOG_LEVEL: 'warn' });
    try {
      const base = await bannerAddress(third);
      assert.doesNotMatch(third.output(), /vrt_live_/);
      const env = cleanEnv({ VERITY_HOME: dir, LOG_LEVEL: 'silent' });
      const listed = JSON.parse(
        (await run(process.execPath, ['bin/verity.js', 'accounts', 'list', '--json'], { env }))
          .stdout,
      ) as { account_id: string; name: string; keys: { name: string; hint: string }[] }[];
      assert.equal(listed.length, 1);
      assert.equal(listed[0].name, 'dev');
      assert.deepEqual(listed[0].keys.map((k) => k.name).sort(), ['default', 'dev (reissued)']);
      assert.ok(!JSON.stringify(listed).includes(shown), 'a listing shows no key value');
      const created = JSON.parse(
        (
          await run(
            process.execPath,
            ['bin/verity.js', 'keys', 'create', '--account', listed[0].account_id, '--json'],
            { env },
          )
        ).stdout,
      ) as { key: string; name: string };
      assert.equal(created.name, 'cli');
      const ping = await fetch(`${base}/v1/ping`, { headers: { 'x-api-key': created.key } });
      assert.equal(ping.status, 200);
      // Names tell keys apart: the next key made without --name is `cli (2)`, and asking for a
      // name an active key has is refused in a sentence.
      const createKey = (...args: string[]) =>
        run(
          process.execPath,
          ['bin/verity.js', 'keys', 'create', '--account', listed[0].account_id, ...args],
          { env },
        ).catch((error: { code: number; stdout: string; stderr: string }) => error);
      const next = (await createKey('--json')) as { stdout: string };
      assert.equal((JSON.parse(next.stdout) as { name: string }).name, 'cli (2)');
      const taken = (await createKey('--name', 'cli')) as { code: number; stderr: string };
      assert.equal(taken.code, 3);
      assert.equal(
        taken.stderr,
        'verity: a live key named "cli" already exists: choose another name, or revoke that key first\n',
      );
      const unknown = await run(
        process.execPath,
        ['bin/verity.js', 'keys', 'create', '--account', '00000000-0000-4000-8000-000000000000'],
        { env },
      ).catch((error: { code: number; stderr: string }) => error);
      assert.equal((unknown as { code: number }).code, 3);
      assert.match((unknown as { stderr: string }).stderr, /account .* not found/);
    } finally {
      third.child.kill('SIGTERM');
      assert.equal(await third.exited, 0, third.output());
    }
  });
});
