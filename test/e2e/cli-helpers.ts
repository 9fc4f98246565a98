// Running the repository's `verity` command in tests: through pipes, or in a real terminal.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eventually } from './batch-helpers';

export const REPO = resolve(__dirname, '../../..');
export const BIN = join(REPO, 'bin/verity.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `verity ...` without a terminal (pipes), as a script or CI job would, in `cwd`. */
export function cli(args: string[], env: Record<string, string>, cwd = REPO): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, cwd },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

function tmux(socket: string, ...args: string[]): Promise<string> {
  return new Promise((done, fail) =>
    execFile('tmux', ['-L', socket, ...args], (error, stdout) =>
      error ? fail(new Error(`tmux ${args[0]}: ${error.message}`)) : done(stdout),
    ),
  );
}

/**
 * `verity ...` in a real pseudo-terminal: a detached tmux pane (what a person sees) running
 * it under `script`, which records the raw bytes written to the terminal.
 */
export class Terminal {
  private readonly socket = `verity-cli-test-${process.pid}-${randomBytes(4).toString('hex')}`;

  private constructor(readonly rawLog: string) {}

  static async start(args: string[], env: Record<string, string>, dir: string): Promise<Terminal> {
    const term = new Terminal(join(dir, `raw-${randomBytes(4).toString('hex')}.log`));
    const assignments = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
    const shell = `cd '${dir}' && env ${assignments} script -qefc "${command}" '${term.rawLog}'; echo "[exit $?]"; sleep 600`;
    await tmux(term.socket, 'new-session', '-d', '-s', 'cli', '-x', '110', '-y', '24', shell);
    return term;
  }

  screen(): Promise<string> {
    return tmux(this.socket, 'capture-pane', '-p', '-t', 'cli');
  }

  async waitFor(pattern: RegExp, what: string): Promise<string> {
    return eventually(
      async () => {
        const text = await this.screen();
        return pattern.test(text) ? text : undefined;
      },
      what,
      120_000,
    );
  }

  async exitCode(): Promise<number> {
    const screen = await this.waitFor(/\[exit \d+\]/, 'the command to end');
    return Number(/\[exit (\d+)\]/.exec(screen)![1]);
  }

  pressCtrlC(): Promise<string> {
    return tmux(this.socket, 'send-keys', '-t', 'cli', 'C-c');
  }

  raw(): Promise<string> {
    return readFile(this.rawLog, 'utf8');
  }

  close(): Promise<string> {
    return tmux(this.socket, 'kill-server').catch(() => '');
  }
}
