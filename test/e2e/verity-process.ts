import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { configSchema } from '@verity/config';

/** A `verity start` (or `npm start`) run by a test, its output collected. */
export interface VerityProcess {
  child: ChildProcess;
  /** stdout and stderr, interleaved. */
  output(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
}

/**
 * The environment of the test run minus every Verity setting, as a newcomer's shell has it,
 * except that the open-data refresh is off (tests never leave 127.0.0.0/8); a test of the
 * refresh passes its own DATA_REFRESH_INTERVAL or deletes it.
 */
export function cleanEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(configSchema.shape)) delete env[name];
  return { ...env, DATA_REFRESH_INTERVAL: 'off', ...settings };
}

/**
 * Spawns `command` in its own process group (a terminal's foreground job: `process.kill(-pid)`
 * reaches every process in it, as Ctrl-C does).
 */
export function spawnVerity(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): VerityProcess {
  const child = spawn(command, args, {
    ...options,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
    err += d.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { child, output: () => out, stderr: () => err, exited };
}

/** Waits for the banner; returns the address it names. Rejects if the process exits first. */
export async function bannerAddress(run: VerityProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(run.output());
      if (m && /Ctrl-C to stop/.test(run.output())) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 100);
    void run.exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`exited with ${code} before the banner:\n${run.output()}`));
    });
  });
}

/** The embedded server's log for VERITY_HOME `home`: beside the data directory it points to as root. */
export async function postgresLogOf(home: string): Promise<string> {
  const pointer = await readFile(join(home, 'postgres.location'), 'utf8').catch(() => null);
  return pointer ? join(dirname(pointer.trim()), 'postgres.log') : join(home, 'postgres.log');
}

/** Removes the embedded cluster of VERITY_HOME `home` where it is not inside it (as root). */
export async function removeCluster(home: string): Promise<void> {
  const pointer = await readFile(join(home, 'postgres.location'), 'utf8').catch(() => null);
  if (pointer) await rm(dirname(pointer.trim()), { recursive: true, force: true });
}
