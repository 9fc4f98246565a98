import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

interface Line {
  level: number;
  msg: string;
  line?: number;
  origin?: string;
  err?: { message: string };
  warning?: { name: string };
}

/** Runs crash-logger.child.js in `mode`, SIGKILLs it when it says so, returns its stdout lines. */
function runChild(mode: string): Promise<{ lines: Line[]; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [join(__dirname, 'crash-logger.child.js'), mode], {
    stdio: ['ignore', 'pipe', 'ignore', 'ipc'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.on('message', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (_code, signal) => {
      const lines = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Line);
      resolve({ lines, signal });
    });
  });
}

describe('logs survive a crash', () => {
  it('a warning written right before SIGKILL is in the output, after the info lines before it', async () => {
    const { lines, signal } = await runChild('warn');
    assert.equal(signal, 'SIGKILL');
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        [30, 'info line'],
        [30, 'info line'],
        [30, 'info line'],
        [40, 'the last words'],
      ],
    );
  });

  it('an uncaught error is logged as a fatal line before the process dies', async () => {
    const { lines } = await runChild('throw');
    const fatal = lines.find((l) => l.level === 60);
    assert.equal(fatal?.msg, 'uncaught error: the process exits');
    assert.equal(fatal?.err?.message, 'boom');
    assert.equal(fatal?.origin, 'uncaughtException');
    assert.equal(lines.filter((l) => l.msg === 'info line').length, 3);
  });

  it('process warnings go to the log at warn, as JSON', async () => {
    const { lines } = await runChild('warning');
    const warning = lines.find((l) => l.level === 40);
    assert.equal(warning?.msg, 'NodeVersionSupportWarning: upgrade Node.js');
    assert.equal(warning?.warning?.name, 'Warning');
  });
});
