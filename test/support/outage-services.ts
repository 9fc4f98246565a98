import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// Dedicated PostgreSQL, Redis and S3Proxy servers that a test may stop and start again: outage
// tests must never touch the shared services. Each listens on its own loopback port and keeps
// its data in its own temporary directory, which survives a stop (a restart finds it again).

/** A server a test can take away and bring back on the same port with the same data. */
export interface StoppableService {
  readonly name: string;
  readonly port: number;
  /** Stops the server (its clients see connections refused) and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>;
}

/** Ports of the outage harness: a range of their own, so parallel work on this box never meets. */
const PORT_RANGE = { from: 21_000, to: 21_999 };

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolvePort) => {
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

/** A free port of the harness range, starting at a random place in it. */
async function harnessPort(): Promise<number> {
  const size = PORT_RANGE.to - PORT_RANGE.from + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = PORT_RANGE.from + ((start + i) % size);
    if (await portFree(port)) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.from}-${PORT_RANGE.to}`);
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

async function waitUntil(what: string, ready: () => Promise<boolean>, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start within 60 s`);
    await sleep(100);
  }
}

/** A program to run, its arguments, and the user to run it as (default: ours). */
interface Command {
  program: string;
  args: string[];
  user?: { uid: number; gid: number };
}

/**
 * One long-running server process: `command()` gives the program and arguments of each start,
 * `ready` says when it serves, `signal` is its clean (fast) shutdown signal.
 */
function processService(options: {
  name: string;
  port: number;
  dir: string;
  command: () => Command;
  ready: () => Promise<boolean>;
  signal: NodeJS.Signals;
}): StoppableService {
  let child: ChildProcess | null = null;
  const service: StoppableService = {
    name: options.name,
    port: options.port,
    async start() {
      if (child) return;
      const { program, args, user } = options.command();
      // A UTF-8 locale whatever the test run's (see S3Proxy in scripts/infra/up.sh).
      const env = { ...process.env, LC_ALL: 'C.UTF-8' };
      const started = spawn(program, args, { stdio: 'ignore', cwd: options.dir, env, ...user });
      child = started;
      // A test process that dies leaves no server behind.
      const onExit = () => started.kill('SIGKILL');
      process.once('exit', onExit);
      started.once('exit', () => process.removeListener('exit', onExit));
      await waitUntil(options.name, options.ready, started);
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill(options.signal);
      // A clean shutdown that hangs is cut short, so a failing test still ends.
      const killer = setTimeout(() => running.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    },
    async destroy() {
      await service.stop();
      await rm(options.dir, { recursive: true, force: true });
    },
  };
  return service;
}

/** The newest PostgreSQL server binaries of the Debian layout, or PG_BIN. */
function postgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? join(base, versions.at(-1)!, 'bin') : null;
}

/** A server the outage harness can start, stop and start again. */
export type HarnessService = 'postgres' | 'redis' | 's3';

/**
 * What the outage harness needs for `services` that may be missing on a machine; null when
 * all is there.
 */
export function outageHarnessMissing(
  services: readonly HarnessService[] = ['postgres', 'redis', 's3'],
): string | null {
  if (services.includes('postgres') && !postgresBin())
    return 'PostgreSQL server binaries (/usr/lib/postgresql/*/bin or PG_BIN)';
  if (services.includes('redis') && spawnSync('redis-server', ['--version']).status !== 0)
    return 'redis-server';
  if (services.includes('s3')) {
    if (spawnSync('java', ['-version']).status !== 0) return 'java (for S3Proxy)';
    if (!existsSync(s3ProxyJars()))
      return `S3Proxy jars in ${s3ProxyJars()} (scripts/infra/up.sh s3)`;
  }
  return null;
}

/** PostgreSQL refuses to run as root: as root the server runs as the `postgres` system user. */
function asServerUser(program: string, args: string[]): Command {
  if (userInfo().uid !== 0) return { program, args };
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout.toString().trim());
  return { program, args, user: { uid: id('-u'), gid: id('-g') } };
}

/** A PostgreSQL cluster of its own (trust auth, user postgres), fsync off: a test server. */
export async function startDedicatedPostgres(): Promise<StoppableService & { url: string }> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const dir = await mkdtemp(join(tmpdir(), 'verity-outage-pg-'));
  const data = join(dir, 'data');
  await mkdir(data);
  const initdb = asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
  ]);
  if (initdb.user) {
    await chmod(dir, 0o755);
    await chown(data, initdb.user.uid, initdb.user.gid);
  }
  const init = spawnSync(initdb.program, initdb.args, {
    encoding: 'utf8',
    cwd: dir,
    ...initdb.user,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await harnessPort();
  const service = processService({
    name: 'postgres',
    port,
    dir,
    command: () =>
      asServerUser(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        data,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'max_connections=60',
      ]),
    ready: () => {
      const isReady = join(bin, 'pg_isready');
      return Promise.resolve(
        spawnSync(isReady, ['-q', '-h', '127.0.0.1', '-p', String(port)]).status === 0,
      );
    },
    signal: 'SIGINT', // fast shutdown: clients are told 57P01, then connections are refused
  });
  await service.start();
  return Object.assign(service, { url: `postgres://postgres@127.0.0.1:${port}/postgres` });
}

/** A Redis of its own, without persistence (`--save ''`): a restart starts it empty. */
export async function startDedicatedRedis(): Promise<StoppableService & { url: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'verity-outage-redis-'));
  const port = await harnessPort();
  const service = processService({
    name: 'redis',
    port,
    dir,
    command: () => ({
      program: 'redis-server',
      args: [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
    }),
    ready: () => accepts(port),
    signal: 'SIGTERM',
  });
  await service.start();
  return Object.assign(service, { url: `redis://127.0.0.1:${port}` });
}

/** Where scripts/infra/up.sh keeps the S3Proxy jars (INFRA_DIR, default .infra at the repo root). */
function s3ProxyJars(): string {
  return join(process.env.INFRA_DIR ?? resolve(__dirname, '../../..', '.infra'), 'lib', 's3proxy');
}

/** S3 settings of a dedicated S3Proxy, as the config's env variables. */
export interface S3Settings {
  S3_ENDPOINT: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_REGION: string;
  S3_FORCE_PATH_STYLE: string;
}

/** An S3Proxy of its own (filesystem backend in a temporary directory, bucket `verity`). */
export async function startDedicatedS3(): Promise<StoppableService & { env: S3Settings }> {
  const dir = await mkdtemp(join(tmpdir(), 'verity-outage-s3-'));
  const port = await harnessPort();
  await mkdir(join(dir, 'data', 'verity'), { recursive: true }); // a bucket is a directory
  const conf = join(dir, 's3proxy.conf');
  await writeFile(
    conf,
    [
      `s3proxy.endpoint=http://127.0.0.1:${port}`,
      's3proxy.authorization=aws-v2-or-v4',
      's3proxy.identity=verity',
      's3proxy.credential=verity-secret-key',
      'jclouds.provider=filesystem-nio2',
      `jclouds.filesystem.basedir=${join(dir, 'data')}`,
    ].join('\n') + '\n',
  );
  const logback = resolve(__dirname, '../../..', 'scripts/infra/s3proxy-logback.xml');
  const service = processService({
    name: 's3proxy',
    port,
    dir,
    command: () => ({
      program: 'java',
      args: [
        '-Xms32m',
        '-Xmx256m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Djava.net.preferIPv4Stack=true',
        `-Dlogback.configurationFile=${logback}`,
        '-cp',
        `${s3ProxyJars()}/*`,
        'org.gaul.s3proxy.Main',
        '--properties',
        conf,
      ],
    }),
    ready: () => accepts(port),
    signal: 'SIGKILL', // as a crashed or partitioned store: no goodbye to its clients
  });
  await service.start();
  return Object.assign(service, {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'verity',
      S3_ACCESS_KEY_ID: 'verity',
      S3_SECRET_ACCESS_KEY: 'verity-secret-key',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
    },
  });
}
