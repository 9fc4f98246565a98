import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import { openDatabase } from '../data-source.factory';
import { ApiKeyUniqueNames1741400000000 } from './1741400000000-api-key-unique-names';

describe('migration ApiKeyUniqueNames: live duplicates renamed, then a unique index', () => {
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url, 2);
    // The table as it was before: no index yet.
    await db.query('DROP INDEX api_keys_live_name_idx');
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  async function account(name: string): Promise<string> {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO accounts (name, webhook_secret) VALUES ($1, 'secret') RETURNING id`,
      [name],
    );
    return row.id;
  }

  let n = 0;
  async function key(
    accountId: string,
    name: string,
    mode = 'live',
    revoked = false,
  ): Promise<string> {
    n++;
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO api_keys (account_id, name, mode, lookup_id, key_hash, created_at, revoked_at)
       VALUES ($1, $2, $3, $4, '\\x00', now() + make_interval(secs => $5), $6) RETURNING id`,
      [accountId, name, mode, `lookup${n}`, n, revoked ? new Date() : null],
    );
    return row.id;
  }

  it('keeps the oldest name, numbers the others past the names taken, and then refuses a duplicate', async () => {
    const one = await account('one');
    const two = await account('two');
    const first = await key(one, 'ci');
    const revoked = await key(one, 'ci', 'live', true);
    const second = await key(one, 'ci');
    const taken = await key(one, 'ci (2)');
    const third = await key(one, 'ci');
    const test = await key(one, 'ci', 'test');
    const elsewhere = await key(two, 'ci');

    const runner = db.createQueryRunner();
    try {
      await new ApiKeyUniqueNames1741400000000().up(runner);
    } finally {
      await runner.release();
    }
    const names = new Map(
      (await db.query<{ id: string; name: string }[]>('SELECT id, name FROM api_keys')).map((r) => [
        r.id,
        r.name,
      ]),
    );
    assert.equal(names.get(first), 'ci');
    assert.equal(names.get(revoked), 'ci', 'a revoked key keeps its name');
    assert.equal(names.get(second), 'ci (3)');
    assert.equal(names.get(taken), 'ci (2)');
    assert.equal(names.get(third), 'ci (4)');
    assert.equal(names.get(test), 'ci', 'the other mode is apart');
    assert.equal(names.get(elsewhere), 'ci', 'another account is apart');

    await assert.rejects(key(one, 'ci'), (e: { driverError?: { constraint?: string } }) => {
      return e.driverError?.constraint === 'api_keys_live_name_idx';
    });
    await key(one, 'ci', 'live', true);
  });
});
