import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv, removeCluster } from './verity-process';

/**
 * `verity start` in a pseudo-terminal (util-linux `script`), as a person sees it: the banner on
 * the first screen, readable log lines, and Ctrl-C typed on the terminal.
 */
describe('`verity start` in a terminal', () => {
  let home: string;

  before(async () => {
    home = join(await mkdtemp(join(tmpdir(), 'verity-first-screen-')), 'home');
  });
  after(async () => {
    await removeCluster(home);
    await rm(dirname(home), { recursive: true, force: true });
  });

  it('shows the banner within the first 10 lines and stops on Ctrl-C', async () => {
    const terminal = spawn(
      'script',
      // `exec`: verity is the terminal's foreground process, as when typed at a prompt; a
      // non-interactive shell in between (dash) would itself die of the Ctrl-C (exit 130).
      ['-qfec', `exec ${process.execPath} bin/verity.js start`, '/dev/null'],
      {
        // `script` runs the command with $SHELL, which CI may leave unset.
        env: { ...cleanEnv({ VERITY_HOME: home, PORT: '0' }), SHELL: '/bin/sh' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    terminal.stdout.on('data', (d: Buffer) => (screen += d.toString().replace(/\r/g, '')));
    const exited = new Promise<number | null>((resolve) => terminal.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (/Ctrl-C to stop/.test(screen)) {
            clearInterval(timer);
            resolve();
          }
        }, 100);
        void exited.then(() => {
          clearInterval(timer);
          reject(new Error(`exited before the banner:\n${screen}`));
        });
      });

      const lines = screen.split('\n');
      const headline = lines.findIndex((l) =>
        /^ {2}Verity is listening on http:\/\/127\.0\.0\.1:\d+$/.test(l),
      );
      // Rows as an 80-column terminal shows them: a long log line wraps onto several.
      const rowsAbove = lines
        .slice(0, headline)
        .reduce((rows, l) => rows + Math.max(1, Math.ceil(l.length / 80)), 0);
      assert.ok(headline >= 0 && rowsAbove < 10, `headline on row ${rowsAbove}:\n${screen}`);
      const origin = /listening on (http:\S+)$/.exec(lines[headline])![1];
      const banner = lines
        .slice(headline, lines.findIndex((l) => /Ctrl-C to stop/.test(l)) + 1)
        .join('\n');
      for (const row of [
        new RegExp(`Console +${origin.replace(/\./g, '\\.')}/console$`, 'm'),
        /API docs +http:/,
        /Data directory +\//,
        /Database +embedded PostgreSQL in \//,
        /vrt_live_\w{24}/,
      ])
        assert.match(banner, row);
      assert.ok(
        !lines.slice(0, headline).some((l) => l.startsWith('{')),
        'JSON log lines in a terminal',
      );

      terminal.stdin.write('\x03'); // Ctrl-C, turned into SIGINT by the terminal
      assert.equal(await exited, 0, screen);
      assert.match(screen, /^\d\d:\d\d:\d\d INFO +shutdown complete/m);
      assert.doesNotMatch(screen, /^\{"level"/m);
    } finally {
      // A failed assertion must not leave verity running: the test would wait for it forever.
      if (terminal.exitCode === null && terminal.signalCode === null) {
        terminal.stdin.write('\x03');
        const stopped = await Promise.race([
          exited.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 30_000)),
        ]);
        if (!stopped) terminal.kill('SIGKILL');
      }
    }
  });
});
