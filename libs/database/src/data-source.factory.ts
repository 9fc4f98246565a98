import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Opens a TypeORM data source on `url` and applies pending migrations. */
export async function openDatabase(url: string, poolSize: number): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: poolSize },
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  return dataSource;
}
