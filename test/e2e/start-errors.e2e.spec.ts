import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bannerAddress,
  cleanEnv,
  removeCluster,
  spawnVerity,
  type VerityProcess,
} from './verity-process';

const STACK_FRAME = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

/** `verity start` with these settings (and node flags); resolves once it exits. */
async function startFails(
  settings: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<{ code: number | string; stderr: string; output: string }> {
  const run = spawnVerity(process.execPath, [...nodeFlags, 'bin/verity.js', 'start'], {
    cwd: process.cwd(),
    env: cleanEnv({ PORT: '0', ...settings }),
  });
  const code = await run.exited;
  return { code, stderr: run.stderr(), output: run.output() };
}

/** One line on stderr, `verity: ` and a sentence ending with a full stop, and no stack anywhere. */
function assertOneSentence(result: { stderr: string; output: string }, pattern: RegExp): void {
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, result.output);
  assert.match(lines[0], /^verity: [A-Z].*\.$/);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.output, STACK_FRAME, result.output);
}

describe('`verity start`: the start-up errors a person can cause', () => {
  let dir: string;
  let busy: Server;
  let busyPort: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-start-errors-'));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  after(async () => {
    busy.close();
    await removeCluster(join(dir, 'locked'));
    await rm(dir, { recursive: true, force: true });
  });

  it('a taken port: names the port and how to pick another, exit 1; the full error at debug', async () => {
    const settings = { VERITY_HOME: join(dir, 'port'), PORT: String(busyPort) };
    const result = await startFails(settings);
    assert.equal(result.code, 1);
    assertOneSentence(
      result,
      new RegExp(
        `Port ${busyPort} on 127\\.0\\.0\\.1 is already in use .* PORT=${busyPort + 1} npm start\\.`,
      ),
    );

    const debug = await startFails({ ...settings, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' });
    assert.equal(debug.code, 1);
    const logged = debug.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; err?: { stack?: string } })
      .find((l) => l.msg === 'verity stopped at start-up');
    assert.match(logged?.err?.stack ?? '', /EADDRINUSE/, debug.output);
  });

  it('a data directory it cannot write: names it and VERITY_HOME, exit 1', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const result = await startFails({ VERITY_HOME: join(file, 'home') });
    assert.equal(result.code, 1);
    assertOneSentence(
      result,
      /Cannot write the data directory .*a-file\/home .*set VERITY_HOME to a directory/,
    );
  });

  it('a data directory another Verity runs on: names its address, exit 1; the first keeps running', async () => {
    const home = join(dir, 'locked');
    const first: VerityProcess = spawnVerity(process.execPath, ['bin/verity.js', 'start'], {
      cwd: process.cwd(),
      env: cleanEnv({ VERITY_HOME: home, PORT: '0', LOG_LEVEL: 'warn' }),
    });
    try {
      const base = await bannerAddress(first);
      const result = await startFails({ VERITY_HOME: home });
      assert.equal(result.code, 1);
      assertOneSentence(
        result,
        new RegExp(
          `already running on this data directory .* at ${base.replace(/\./g, '\\.')} \\(pid ${first.child.pid}\\).*set VERITY_HOME`,
        ),
      );
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
    } finally {
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
    }
  });

  it('an unsupported Node.js: names the version needed, exit 1', async () => {
    const result = await startFails({ VERITY_HOME: join(dir, 'node') }, [
      '--import',
      'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.19.0"})',
    ]);
    assert.equal(result.code, 1);
    assertOneSentence(result, /needs Node\.js 20 or newer but this is Node\.js 18\.19\.0/);
  });

  it('a bad setting: names the variable and where the settings are listed, exit 1', async () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['LOG_FORMAT', 'fancy'],
    ]) {
      const result = await startFails({ VERITY_HOME: join(dir, 'config'), [name]: value });
      assert.equal(result.code, 1);
      assertOneSentence(result, new RegExp(`Invalid configuration, ${name}: .*fix this setting`));
    }
  });
});
