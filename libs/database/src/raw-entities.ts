import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';

/**
 * Entities from the rows of a statement TypeORM cannot build (a CTE, `UPDATE … RETURNING *`
 * through the query builder's `raw`, typed `any` by TypeORM): each column is read by its database name and passes
 * through the entity's transformer, exactly as a repository read would.
 */
export function entitiesFromRows<T extends ObjectLiteral>(
  db: DataSource | EntityManager,
  target: EntityTarget<T>,
  rows: unknown,
): T[] {
  const metadata = (db instanceof DataSource ? db : db.connection).getMetadata(target);
  if (!Array.isArray(rows)) throw new TypeError(`rows of ${metadata.tableName} expected`);
  return rows.map((row: Record<string, unknown>) => {
    const entity = metadata.create() as T;
    for (const column of metadata.columns) {
      if (!(column.databaseName in row)) continue;
      const value = row[column.databaseName];
      column.setEntityValue(
        entity,
        column.transformer
          ? ApplyValueTransformers.transformFrom(column.transformer, value)
          : value,
      );
    }
    return entity;
  });
}
