// The call log on real PostgreSQL: full batches when busy, everything once the wait is over,
// rows kept through an outage, the oldest dropped beyond the bound.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { openDatabase } from '@verity/database';
import { createTestDatabase, waitFor, type TestDatabase } from '@verity/testing';
import { VerifyCallRepository, type CallRow } from '../db/verify-call.repository';
import { CallLog } from './call-log';

/** The real repository, with each batch it is asked to write recorded. */
class ObservedCalls extends VerifyCallRepository {
  readonly batches: number[] = [];
  failing = false;

  override async insertBatch(rows: readonly string[]): Promise<void> {
    if (this.failing) throw new Error('connection refused');
    this.batches.push(rows.length);
    await super.insertBatch(rows);
  }
}

describe('CallLog', () => {
  let database: TestDatabase;
  let db: DataSource;
  let accountId: string;

  const row = (i: number): CallRow => ({
    requestId: randomUUID(),
    scope: { accountId, mode: 'live' },
    at: Date.now(),
    values: { email: `e${i}`, ip: `i${i}`, subnet: 's' },
    fraudScore: i % 101,
    riskReasons: ['ip_velocity_1h'],
    creditReasons: [],
  });
  const stored = async () =>
    Number((await db.query<{ n: string }[]>('SELECT count(*) AS n FROM verify_calls'))[0].n);

  before(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url, 2);
    [{ id: accountId }] = await db.query<{ id: string }[]>(
      `INSERT INTO accounts (name, webhook_secret) VALUES ('log', 'whsec-call-log-spec') RETURNING id`,
    );
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('writes full batches while busy and the rest once the wait is over', async () => {
    await db.query('DELETE FROM verify_calls');
    const calls = new ObservedCalls(db);
    const log = new CallLog(calls, null, { batchRows: 100, flushMs: 200, maxBufferedRows: 1_000 });
    for (let i = 0; i < 250; i++) log.add(row(i));
    await waitFor('every call written', async () => (await stored()) === 250);
    assert.deepEqual(calls.batches, [100, 100, 50]);
    const [written] = await db.query<{ risk_reasons: string[]; credit_reasons: string[] }[]>(
      'SELECT risk_reasons, credit_reasons FROM verify_calls LIMIT 1',
    );
    assert.deepEqual(written, { risk_reasons: ['ip_velocity_1h'], credit_reasons: [] });
    await log.close();
  });

  it('keeps calls through an outage, drops the oldest beyond its bound, writes the rest after', async () => {
    await db.query('DELETE FROM verify_calls');
    const calls = new ObservedCalls(db);
    const log = new CallLog(calls, null, { batchRows: 10, flushMs: 50, maxBufferedRows: 30 });
    calls.failing = true;
    const rows = Array.from({ length: 40 }, (_, i) => row(i));
    for (const r of rows) log.add(r);
    await log.flush();
    assert.equal(await stored(), 0);
    calls.failing = false;
    await log.close();
    const ids = (await db.query<{ request_id: string }[]>('SELECT request_id FROM verify_calls'))
      .map((r) => r.request_id)
      .sort();
    assert.deepEqual(
      ids,
      rows
        .slice(10)
        .map((r) => r.requestId)
        .sort(),
    );
  });
});
