import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A live key's name is unique within its account and mode, so a list of keys never shows two
 * that cannot be told apart. Live duplicates made before keep the oldest key's name; each later
 * one is renamed `name (2)`, `name (3)`, … (skipping a name another live key already has), then
 * a partial unique index holds the rule (a revoked key's name is free again).
 */
export class ApiKeyUniqueNames1741400000000 implements MigrationInterface {
  name = 'ApiKeyUniqueNames1741400000000';

  async up(q: QueryRunner): Promise<void> {
    type Key = { id: string; account_id: string; mode: string; name: string; rank: number };
    const keys = (await q.query(
      `SELECT id, account_id, mode, name,
                row_number() OVER (PARTITION BY account_id, mode, name ORDER BY created_at, id)::int AS rank
           FROM api_keys WHERE revoked_at IS NULL ORDER BY account_id, mode, created_at, id`,
    )) as Key[];
    const taken = new Set(keys.map((k) => `${k.account_id} ${k.mode} ${k.name}`));
    for (const key of keys) {
      if (key.rank === 1) continue;
      let n = 2;
      while (taken.has(`${key.account_id} ${key.mode} ${key.name} (${n})`)) n++;
      const renamed = `${key.name} (${n})`;
      taken.add(`${key.account_id} ${key.mode} ${renamed}`);
      await q.query(`UPDATE api_keys SET name = $2 WHERE id = $1`, [key.id, renamed]);
    }
    await q.query(
      `CREATE UNIQUE INDEX api_keys_live_name_idx ON api_keys (account_id, mode, name) WHERE revoked_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_keys_live_name_idx`);
  }
}
