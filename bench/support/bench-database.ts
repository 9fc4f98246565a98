import { createTestDatabase, type TestDatabase } from '@verity/testing';

/** The PostgreSQL a benchmark runs against, and how it was obtained (printed in the output). */
export type BenchDatabase = TestDatabase;

/**
 * A real PostgreSQL for the benchmark: DATABASE_URL as is when set; otherwise what the tests
 * use (a fresh database on TEST_DATABASE_URL or the local server, else an embedded one).
 */
export async function provisionBenchDatabase(): Promise<BenchDatabase> {
  const given = process.env.DATABASE_URL;
  if (!given) return createTestDatabase();
  const shown = new URL(given);
  if (shown.password) shown.password = '***';
  return {
    url: given,
    description: `DATABASE_URL ${shown.toString()} (used as is)`,
    drop: () => Promise.resolve(),
  };
}
