import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { PostgresClient, recognisePostgresOutages } from './postgres.outage';

/** Any fixed number: every Verity process takes this advisory lock to migrate. */
const MIGRATION_LOCK = 7_302_011;

/**
 * Opens a TypeORM data source on `url` and applies pending migrations. Processes that boot
 * together (api, ingest and scorers) serialise on a PostgreSQL advisory lock, so exactly one
 * applies each migration and the others find nothing left to do.
 */
export async function openDatabase(url: string, poolSize: number): Promise<DataSource> {
  recognisePostgresOutages();
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // PostgresClient: a connection the server refuses is an outage of `postgres`, not `network`.
    extra: { max: poolSize, Client: PostgresClient },
  });
  await dataSource.initialize();
  try {
    await migrateUnderLock(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

async function migrateUnderLock(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await dataSource.runMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}
