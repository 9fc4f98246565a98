import { DataSource, EntityManager, type QueryRunner, type UpdateQueryBuilder } from 'typeorm';
import { BatchJobEntity, entitiesFromRows } from '@verity/database';

/** Where a batch_jobs statement runs: the pool, or a transaction's manager or runner. */
export type Db = DataSource | EntityManager | QueryRunner;

/** The entity manager behind `db`. */
export function managerOf(db: Db): EntityManager {
  if (db instanceof DataSource) return db.manager;
  if (db instanceof EntityManager) return db;
  return db.manager;
}

/** Runs an `UPDATE … RETURNING *` built on batch_jobs; the updated job, or null if none. */
export async function updateJobReturning(
  db: Db,
  build: (qb: UpdateQueryBuilder<BatchJobEntity>) => UpdateQueryBuilder<BatchJobEntity>,
): Promise<BatchJobEntity | null> {
  const manager = managerOf(db);
  const result = await build(manager.getRepository(BatchJobEntity).createQueryBuilder().update())
    .returning('*')
    .execute();
  return entitiesFromRows(manager, BatchJobEntity, result.raw)[0] ?? null;
}
