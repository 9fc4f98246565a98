import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@verity/config';
import { openDatabase, startEmbeddedPostgres } from '@verity/database';

/** The process's database: external (DATABASE_URL) or embedded PostgreSQL under VERITY_HOME. */
export interface DatabaseRuntime {
  dataSource: DataSource;
  embedded: boolean;
  /** Where the data lives, for people: the embedded data directory, or the server's host/db. */
  location: string;
  close(): Promise<void>;
}

/** Where a running embedded server publishes its URL, so the CLI can reach it while it runs. */
const urlFile = (home: string) => join(resolve(home), 'postgres.url');

async function external(url: string, poolSize: number): Promise<DatabaseRuntime> {
  const dataSource = await openDatabase(url, poolSize);
  const { host, pathname } = new URL(url);
  return {
    dataSource,
    embedded: false,
    location: `PostgreSQL at ${host}${pathname}`,
    close: () => dataSource.destroy(),
  };
}

/**
 * Opens the database named by DATABASE_URL, or else the embedded one under VERITY_HOME:
 * the one a running `verity start` published (unless `joinRunning` is false: `verity start`
 * holds the data directory's lock, so a published URL can only be a dead run's), or a server
 * started here. Migrations run either way. When `signal` aborts meanwhile (a stop during the
 * start), a server started here is stopped again and the abort reason thrown.
 */
export async function openDatabaseRuntime(
  config: AppConfig,
  logger: Logger,
  options: { joinRunning: boolean; signal?: AbortSignal } = { joinRunning: true },
): Promise<DatabaseRuntime> {
  if (config.DATABASE_URL) {
    logger.debug('opening the database and applying migrations');
    return external(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  }
  const published = options.joinRunning
    ? await readFile(urlFile(config.VERITY_HOME), 'utf8').catch(() => null)
    : null;
  if (published) {
    const running = await external(published.trim(), config.DATABASE_POOL_SIZE).catch(() => null);
    if (running) return running;
  }
  const pgLog = logger.child({ component: 'embedded-postgres' });
  logger.debug('starting the embedded PostgreSQL');
  const server = await startEmbeddedPostgres(
    config.VERITY_HOME,
    (line) => pgLog.debug(line),
    options.signal,
  );
  try {
    options.signal?.throwIfAborted();
    logger.debug('opening the database and applying migrations');
    const dataSource = await openDatabase(server.url, config.DATABASE_POOL_SIZE);
    await writeFile(urlFile(config.VERITY_HOME), server.url + '\n', { mode: 0o600 });
    return {
      dataSource,
      embedded: true,
      location: `embedded PostgreSQL in ${server.dataDir}`,
      async close() {
        await rm(urlFile(config.VERITY_HOME), { force: true });
        await dataSource.destroy();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
