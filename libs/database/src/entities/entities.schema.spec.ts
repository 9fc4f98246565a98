import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import { openDatabase } from '../data-source.factory';

interface DbColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
}

/**
 * Every difference between the entities and the migrated tables they map: a column only on
 * one side, or a column whose type, nullability or having a default differ.
 */
async function differences(db: DataSource): Promise<string[]> {
  const tables = db.entityMetadatas.map((m) => m.tableName);
  const columns = await db.query<DbColumn[]>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
    [tables],
  );
  const out: string[] = [];
  for (const entity of db.entityMetadatas) {
    const inDb = new Map(
      columns.filter((c) => c.table_name === entity.tableName).map((c) => [c.column_name, c]),
    );
    if (inDb.size === 0) out.push(`${entity.tableName}: no such table`);
    for (const column of entity.columns) {
      const name = `${entity.tableName}.${column.databaseName}`;
      const actual = inDb.get(column.databaseName);
      inDb.delete(column.databaseName);
      if (!actual) {
        out.push(`${name}: in the entity, not in the migrations`);
        continue;
      }
      // information_schema names every array column's type ARRAY.
      const type = column.isArray ? 'ARRAY' : db.driver.normalizeType(column);
      if (type !== actual.data_type) out.push(`${name}: entity ${type}, table ${actual.data_type}`);
      if (column.isNullable !== (actual.is_nullable === 'YES'))
        out.push(`${name}: entity nullable=${column.isNullable}, table ${actual.is_nullable}`);
      const entityDefault =
        column.default !== undefined ||
        column.isGenerated ||
        column.isCreateDate ||
        column.isUpdateDate;
      if (entityDefault !== (actual.column_default !== null))
        out.push(`${name}: entity default=${entityDefault}, table ${actual.column_default}`);
    }
    for (const column of inDb.keys())
      out.push(`${entity.tableName}.${column}: in the migrations, not in the entity`);
  }
  return out;
}

describe('entities and migrations', () => {
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url, 2);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('every entity matches its migrated table: columns, types, nullability, defaults', async () => {
    assert.deepEqual(await differences(db), []);
  });

  it('reports a column the migrations add and an entity lacks', async () => {
    await db.query('ALTER TABLE settings ADD COLUMN note text NOT NULL DEFAULT 1');
    await db.query('ALTER TABLE settings ALTER COLUMN value DROP NOT NULL');
    assert.deepEqual(await differences(db), [
      'settings.value: entity nullable=false, table YES',
      'settings.note: in the migrations, not in the entity',
    ]);
  });
});
