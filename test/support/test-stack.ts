import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DataSource } from 'typeorm';
import { AccountsService } from '@verity/accounts';
import { loadConfig, type AppConfig } from '@verity/config';
import type { LoopbackDnsServer } from '@verity/integrations';
import { createMetrics, type VerityMetrics } from '@verity/observability';
import {
  buildEngines,
  createLogger,
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
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    CONSOLE_URL: 'https://console.verity.test',
    ...options.env,
  });
  const logger = createLogger(config, 'verity-test');
  let db: DatabaseRuntime | undefined;
  let engines: EnginesRuntime | undefined;
  try {
    db = await openDatabaseRuntime(config, logger);
    const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
    const built = await buildEngines(config, metrics);
    engines = built;
    const app = await createApiApp({
      resources: { config, dataSource: db.dataSource, metrics },
      engines: built.engines,
      logger,
      checks: { data_sets: () => built.dataReadiness() },
      modules: options.modules,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
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
        return {
          accountId: created.account_id,
          apiKey: created.api_key,
          client: client.withKey(created.api_key),
        };
      },
      async close() {
        await app.close();
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
