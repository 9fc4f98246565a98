import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DataSource } from 'typeorm';
import { AccountsService } from '@verity/accounts';
import { loadConfig, type AppConfig } from '@verity/config';
import type { LoopbackDnsServer } from './dns/loopback-dns.server';
import { createMetrics, type VerityMetrics } from '@verity/observability';
import pino from 'pino';
import {
  buildEngines,
  createLogger,
  loggerOptions,
  openDatabaseRuntime,
  type DatabaseRuntime,
  type EnginesRuntime,
} from '@verity/platform';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { TestClient } from './http-client';
import { createTestDatabase, type TestDatabase } from './test-database';
import { startTestDns } from './test-dns';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A running API on loopback with its own database, DNS zone and data directory. */
export interface TestStack {
  config: AppConfig;
  app: NestFastifyApplication;
  client: TestClient;
  admin: TestClient;
  dataSource: DataSource;
  database: TestDatabase;
  dns: LoopbackDnsServer;
  metrics: VerityMetrics | null;
  /** Creates an account with `credits` and returns a client that sends its key. */
  account(
    credits: number,
    name?: string,
  ): Promise<{ accountId: string; apiKey: string; client: TestClient }>;
  close(): Promise<void>;
}

export interface TestStackOptions {
  env?: Record<string, string>;
  /** Share a database with another stack (two API instances on one database). */
  database?: TestDatabase;
  /** Further modules hosted by the API process (e.g. the batch pipeline: IngestModule, ScorerModule). */
  modules?: (Type | DynamicModule)[];
}

/**
 * With VERITY_TEST_AUDIT_DIR set (scripts/run-tests.mjs sets it), every stack logs at info to
 * a file there and, when it closes, lists the secrets it created (API keys, key hashes,
 * webhook and signing secrets) in `secrets.txt`; the runner then greps the logs for them.
 */
const AUDIT_DIR = process.env.VERITY_TEST_AUDIT_DIR;

async function recordSecrets(dataSource: DataSource, secrets: string[]): Promise<void> {
  const rows: { value: string }[] = await dataSource.query(
    `SELECT webhook_secret AS value FROM accounts
     UNION ALL SELECT encode(key_hash, 'hex') FROM api_keys
     UNION ALL SELECT value FROM settings`,
  );
  const all = [...secrets, ...rows.map((r) => r.value)].filter((v) => v && v.length >= 16);
  await appendFile(join(AUDIT_DIR!, 'secrets.txt'), all.map((v) => `${v}\n`).join(''));
}

/** Boots the API in this process against real PostgreSQL; every test file gets its own stack. */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const home = await mkdtemp(join(tmpdir(), 'verity-test-home-'));
  const dns = await startTestDns();
  const config = loadConfig({
    NODE_ENV: 'test',
    VERITY_HOME: home,
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    DNS_SERVERS: dns.servers,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (AUDIT_DIR ? 'info' : 'silent'),
    PORT: '0',
    CONSOLE_URL: 'https://console.verity.test',
    // The open-data refresh would download from the Internet; tests never leave loopback.
    DATA_REFRESH_INTERVAL: 'off',
    ...options.env,
  });
  const logger = AUDIT_DIR
    ? pino(
        loggerOptions(config, 'verity-test'),
        pino.destination({ dest: join(AUDIT_DIR, `${randomUUID()}.log`), sync: false }),
      )
    : createLogger(config, 'verity-test');
  const secrets: string[] = [ADMIN_TOKEN];
  let db: DatabaseRuntime | undefined;
  let engines: EnginesRuntime | undefined;
  try {
    db = await openDatabaseRuntime(config, logger);
    const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
    const built = await buildEngines(config, metrics, logger);
    engines = built;
    const app = await createApiApp({
      resources: { config, dataSource: db.dataSource, metrics },
      engines: built.engines,
      logger,
      checks: built.checks(),
      modules: options.modules,
    });
    await app.listen({ port: config.PORT, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const accounts = app.get(AccountsService);
    const [dbRuntime, enginesRuntime] = [db, engines];
    return {
      config,
      app,
      client,
      admin: client,
      dataSource: db.dataSource,
      database,
      dns: dns.server,
      metrics,
      async account(credits, name = 'test') {
        const created = await accounts.create(name, credits);
        secrets.push(created.api_key);
        return {
          accountId: created.account_id,
          apiKey: created.api_key,
          client: client.withKey(created.api_key),
        };
      },
      async close() {
        if (AUDIT_DIR) await recordSecrets(dbRuntime.dataSource, secrets).catch(() => undefined);
        await app.close();
        logger.flush();
        await enginesRuntime.close();
        await dbRuntime.close();
        await dns.server.stop();
        if (ownDatabase) await database.drop();
        await rm(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await engines?.close();
    await db?.close();
    await dns.server.stop();
    if (ownDatabase) await database.drop();
    throw error;
  }
}
