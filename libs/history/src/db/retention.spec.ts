// Retention and removal of the history's rows on real PostgreSQL: calls and reports older than
// the cutoff go, newer ones stay, and an account's rows go with it.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { openDatabase } from '@verity/database';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import { VerifyCallRepository, encodeCallRow } from './verify-call.repository';
import { VerifyFeedbackRepository } from './verify-feedback.repository';

const DAY = 24 * 3_600_000;

describe('history rows: retention and removal', () => {
  let database: TestDatabase;
  let db: DataSource;
  let calls: VerifyCallRepository;
  let reports: VerifyFeedbackRepository;

  const account = async (): Promise<string> =>
    (
      await db.query<{ id: string }[]>(
        `INSERT INTO accounts (name, webhook_secret) VALUES ('h', 'whsec-retention-spec') RETURNING id`,
      )
    )[0].id;
  const count = async (table: string, accountId: string) =>
    Number(
      (
        await db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM ${table} WHERE account_id = $1`,
          [accountId],
        )
      )[0].n,
    );
  async function seed(accountId: string, ages: number[]): Promise<string[]> {
    const scope = { accountId, mode: 'live' as const };
    const ids = ages.map(() => randomUUID());
    await calls.insertBatch(
      ages.map((age, i) =>
        encodeCallRow({
          requestId: ids[i],
          scope,
          at: Date.now() - age,
          values: { ip: `ip${i}` },
          fraudScore: 50,
          riskReasons: [],
          creditReasons: ['ip_clean'],
        }),
      ),
    );
    for (const [i, age] of ages.entries()) {
      await reports.transaction((manager) =>
        reports.record(
          {
            scope,
            requestId: ids[i],
            outcome: 'fraud',
            values: { ip: `ip${i}` },
            at: Date.now() - age,
          },
          manager,
        ),
      );
    }
    return ids;
  }

  before(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url, 2);
    calls = new VerifyCallRepository(db);
    reports = new VerifyFeedbackRepository(db);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('deletes calls and reports older than the cutoff, and keeps the rest', async () => {
    const accountId = await account();
    const ids = await seed(accountId, [100 * DAY, 91 * DAY, 10 * DAY, 0]);
    const cutoff = new Date(Date.now() - 90 * DAY);
    assert.equal(await calls.deleteBefore(cutoff), 2);
    assert.equal(await reports.deleteBefore(cutoff), 2);
    const left = await db.query<{ request_id: string }[]>(
      'SELECT request_id FROM verify_calls WHERE account_id = $1 ORDER BY created_at',
      [accountId],
    );
    assert.deepEqual(
      left.map((r) => r.request_id),
      ids.slice(2),
    );
    assert.equal(await count('verify_feedback', accountId), 2);
    // The weights restored at boot read only the reports kept, each decayed by its age.
    const weights = await reports.reportWeights(Date.now(), 30 * DAY, cutoff);
    const mine = weights.filter((w) => w.accountId === accountId).map((w) => w.fraud);
    assert.equal(mine.length, 2);
    assert.ok(
      Math.abs(Math.max(...mine) - 1) < 0.01 && Math.abs(Math.min(...mine) - 2 ** (-1 / 3)) < 0.01,
    );
  });

  it("removes an account's calls and reports with the account", async () => {
    const accountId = await account();
    await seed(accountId, [0, DAY]);
    await db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    assert.deepEqual(
      [await count('verify_calls', accountId), await count('verify_feedback', accountId)],
      [0, 0],
    );
  });
});
