import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '@verity/database';

/** A database that exists only for one test file. */
export interface TestDatabase {
  url: string;
  /** Where it lives, for benchmark output (no password). */
  description: string;
  drop(): Promise<void>;
}

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates a uniquely named database on the PostgreSQL at TEST_DATABASE_URL (default: the
 * machine's server on 127.0.0.1:5432). Where no server answers, outside CI, the tests use an
 * embedded PostgreSQL in a temporary directory instead, so `npm test` works anywhere.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (await reachable(ADMIN_URL)) {
    const name = `verity_test_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      description: `fresh database ${name} on the PostgreSQL at ${url.host} (dropped afterwards)`,
      async drop() {
        const c = new Client({ connectionString: ADMIN_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  if (process.env.CI === 'true') throw new Error(`TEST_DATABASE_URL ${ADMIN_URL} is not reachable`);
  const home = await mkdtemp(join(tmpdir(), 'verity-test-pg-'));
  const server = await startEmbeddedPostgres(home, () => undefined);
  return {
    url: server.url,
    description: `embedded PostgreSQL in ${home} (removed afterwards)`,
    async drop() {
      await server.stop();
      // As root the cluster lives under /var/lib/verity, not in the temporary directory.
      if (!server.dataDir.startsWith(home))
        await rm(dirname(server.dataDir), { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    },
  };
}
