import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A deployable started from dist/ as its own node process. */
export interface Deployable {
  name: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL (no shutdown hooks, nothing committed) and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ENTRY = {
  api: 'dist/apps/api/src/main.js',
  ingest: 'dist/apps/ingest/src/main.js',
  scorer: 'dist/apps/scorer/src/main.js',
} as const;

/** Starts `kind` with `env` and waits until its /healthz answers; output goes to `logDir`. */
export async function startDeployable(
  kind: keyof typeof ENTRY,
  name: string,
  env: Record<string, string>,
  logDir: string,
): Promise<Deployable> {
  const port = await freePort();
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['--enable-source-maps', ENTRY[kind]], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with ${child.exitCode}; see ${logDir}/${name}.log`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline)
      throw new Error(`${name} did not become healthy; see ${logDir}/${name}.log`);
    await sleep(200);
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { name, port, child, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
