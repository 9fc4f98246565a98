import { DataSource, EntityManager, type QueryRunner } from 'typeorm';

/** Where a batch_jobs statement runs: the pool, or a transaction's manager or runner. */
export type Db = DataSource | EntityManager | QueryRunner;

/** The entity manager behind `db`. */
export function managerOf(db: Db): EntityManager {
  if (db instanceof DataSource) return db.manager;
  if (db instanceof EntityManager) return db;
  return db.manager;
}
