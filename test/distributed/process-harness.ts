import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deployableCommand, type DeployableApp } from '../deploy/deploy-files';

/** A deployable started from dist/ as its own node process. */
export interface Deployable {
  name: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** SIGKILL (no shutdown hooks, nothing committed) and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful) and wait for the exit; SIGKILL if it has not exited after 20 s. */
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

/** Node flags and entry point of each process kind: a deployable's as package.json starts it. */
const ENTRY: Record<DeployableApp | 'verity', () => string[]> = {
  api: () => deployableCommand('api').slice(1),
  ingest: () => deployableCommand('ingest').slice(1),
  scorer: () => deployableCommand('scorer').slice(1),
  verity: () => ['dist/apps/verity/src/main.js', 'start'],
};

/** Extra node flags (e.g. --cpu-prof) and a hook that sees the child as soon as it is spawned. */
export interface DeployableOptions {
  execArgv?: readonly string[];
  /**
   * `--enable-source-maps` (default true): a failing test's stack names the TypeScript lines.
   * Benchmarks turn it off to measure the command line as deployed: Node then holds every loaded
   * module's source map, about 11 MB more heap in the API.
   */
  sourceMaps?: boolean;
  /** Listen here instead of a fresh free port (when PUBLIC_URL must name it beforehand). */
  port?: number;
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Starts `kind` with `env` and waits until its /healthz answers; output goes to `logDir`. A free
 * port is free only when asked: when another process took it before the child listened, the
 * child is started again on another one (only for a port this harness chose).
 */
export async function startDeployable(
  kind: keyof typeof ENTRY,
  name: string,
  env: Record<string, string>,
  logDir: string,
  options: DeployableOptions = {},
): Promise<Deployable> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(kind, name, env, logDir, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || options.port !== undefined || attempt === 3) throw error;
    }
  }
}

/** The child could not listen: its port was taken between freePort() and its listen (it says so). */
class PortTaken extends Error {}

async function startOnce(
  kind: keyof typeof ENTRY,
  name: string,
  env: Record<string, string>,
  logDir: string,
  options: DeployableOptions,
): Promise<Deployable> {
  const port = options.port ?? (await freePort());
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(
    process.execPath,
    [
      ...(options.sourceMaps === false ? [] : ['--enable-source-maps']),
      ...(options.execArgv ?? []),
      ...ENTRY[kind](),
    ],
    {
      // The open-data refresh stays off: tests never leave loopback.
      env: {
        ...process.env,
        DATA_REFRESH_INTERVAL: 'off',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let portTaken = false;
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (d: Buffer) => {
      if (/EADDRINUSE|is already in use/.test(d.toString())) portTaken = true;
    });
  options.onSpawn?.(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `${name} exited with ${child.exitCode}; see ${logDir}/${name}.log`;
      throw portTaken ? new PortTaken(message) : new Error(message);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy; see ${logDir}/${name}.log`);
    }
    await sleep(200);
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    // A graceful stop that hangs is ended, so a failing test still cleans up.
    const killer = sig === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  };
  return {
    name,
    port,
    pid: child.pid ?? -1,
    child,
    kill9: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}
