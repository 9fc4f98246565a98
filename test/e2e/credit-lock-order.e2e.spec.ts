import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { CreditsService, LedgerRepository } from '@verity/accounts';
import { startTestStack, type TestStack } from '@verity/testing';
import { LeaseRepository } from '../../libs/accounts/src/leases/lease.repository';

/**
 * Lock order of the credit statements on real PostgreSQL: the account row first, then ledger,
 * lease and usage rows (docs/credits.md, invariant 1). Each test builds the interleaving that
 * deadlocked (or would) with a second connection that holds one lock and asks for the other.
 */

const CURRENT_HOUR = `date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** Adds one call to the (account, this hour, email_validate, key) usage row, as a debit does. */
const UPSERT_USAGE = `
  INSERT INTO usage_hourly AS u (account_id, hour, operation, key_id, calls, credits)
  VALUES ($1, ${CURRENT_HOUR}, 'email_validate', $2, 1, 1)
  ON CONFLICT (account_id, hour, operation, key_id)
  DO UPDATE SET calls = u.calls + 1, credits = u.credits + 1`;

/** Resolves once some session of this database waits on a row lock (another test's excluded). */
async function someoneWaitsOnALock(db: DataSource, notPid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const rows: unknown[] = await db.query(
      `SELECT 1 FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
      [notPid],
    );
    if (rows.length > 0) return;
    await sleep(20);
  }
  assert.fail('no session started waiting on a lock within 10 s');
}

/**
 * A second connection in an open transaction that leaves deadlock detection to the other side:
 * its `deadlock_timeout` is far above the server's 1 s, so when a cycle forms, the statement
 * under test is the one PostgreSQL aborts.
 */
async function patientTransaction(db: DataSource): Promise<{ runner: QueryRunner; pid: number }> {
  const runner = db.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(`SET LOCAL deadlock_timeout = '30s'`);
  await runner.query(`SET LOCAL lock_timeout = '20s'`);
  const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
  return { runner, pid };
}

async function finish(runner: QueryRunner): Promise<void> {
  if (runner.isTransactionActive) await runner.rollbackTransaction();
  await runner.release();
}

async function usageCalls(db: DataSource, accountId: string, keyId: string): Promise<number> {
  const [row] = await db.query(
    `SELECT COALESCE(sum(calls), 0) AS calls FROM usage_hourly WHERE account_id = $1 AND key_id = $2`,
    [accountId, keyId],
  );
  return Number(row.calls);
}

describe('credit statements take the account row first', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('a debit holding the account row does not block another transaction adding usage or ledger rows (no deadlock with a settle)', async () => {
    // The deadlock CI met: a settle held a usage row and waited for its foreign-key check on the
    // account, which a direct debit held FOR UPDATE while it waited for that usage row.
    const { accountId } = await stack.account(100);
    const debit = stack.dataSource.createQueryRunner();
    const other = stack.dataSource.createQueryRunner();
    await debit.connect();
    await other.connect();
    try {
      await debit.startTransaction();
      const { outcomes } = await stack.app
        .get(LedgerRepository)
        .applyMovementsIn(debit, accountId, [
          { delta: -1, reason: 'email_validate', reference: 'held' },
        ]);
      assert.deepEqual(outcomes, [99]);
      await other.startTransaction();
      // Without the fix this waits for the debit's commit: the lock timeout turns that into an error.
      await other.query(`SET LOCAL lock_timeout = '5s'`);
      await other.query(
        `INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
         VALUES ($1, 0, 'lease_released', 'other', 99)`,
        [accountId],
      );
      await other.query(
        `INSERT INTO usage_hourly (account_id, hour, operation, key_id, calls, credits)
         VALUES ($1, date_trunc('hour', now()), 'email_validate', gen_random_uuid(), 0, 0)`,
        [accountId],
      );
    } finally {
      await finish(other);
      await finish(debit);
    }
  });

  it('a settle that gives credits back locks the account before its usage rows', async () => {
    const { accountId } = await stack.account(100);
    const keyId = randomUUID();
    const leases = stack.app.get(LeaseRepository);
    const { granted, leaseId } = await leases.reserve(accountId, 'lock-order-test', 20, 0, 1);
    assert.equal(granted, 20);
    const { runner: debit, pid } = await patientTransaction(stack.dataSource);
    try {
      // A direct debit's first step: the account row.
      await debit.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      const spent = [{ keyId, operation: 'email_validate', calls: 1, credits: 1 }];
      const settling = leases.settle(leaseId!, 'lock-order-test', spent, 5, false);
      const settled = settling.then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      );
      await someoneWaitsOnALock(stack.dataSource, pid);
      // Its second: the usage row of the same key, operation and hour. Had the settle taken that
      // row before the account, this would wait for the settle, which waits for this
      // transaction: PostgreSQL would abort the settle with deadlock_detected.
      await debit.query(UPSERT_USAGE, [accountId, keyId]);
      await debit.commitTransaction();
      assert.deepEqual(await settled, { ok: true });
    } finally {
      await finish(debit);
    }
    assert.equal(await usageCalls(stack.dataSource, accountId, keyId), 2);
    assert.equal(await leases.settle(leaseId!, 'lock-order-test', [], 14, true), true);
    const [row] = await stack.dataSource.query(
      'SELECT credits_balance AS balance FROM accounts WHERE id = $1',
      [accountId],
    );
    assert.equal(Number(row.balance), 99);
  });

  it('a debit that PostgreSQL aborts for a deadlock is run again, not answered with an error', async () => {
    const { accountId } = await stack.account(100);
    const keyId = randomUUID();
    const credits = stack.app.get(CreditsService);
    const { runner: other, pid } = await patientTransaction(stack.dataSource);
    try {
      // `other` takes the usage row first and the account second: the reverse of a debit.
      await other.query(UPSERT_USAGE, [accountId, keyId]);
      const paying = credits.debit(accountId, 1, 'email_validate', 'deadlock', {
        keyId,
        operation: 'email_validate',
        calls: 1,
      });
      const paid = paying.then(
        (balance) => ({ balance }),
        (error: unknown) => ({ error }),
      );
      await someoneWaitsOnALock(stack.dataSource, pid);
      // The debit holds the account and waits for the usage row: a cycle. The debit's session
      // detects it after the server's deadlock_timeout and is aborted; this statement then gets
      // the account row, which proves the debit's first run was rolled back.
      await other.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      await other.commitTransaction();
      assert.deepEqual(await paid, { balance: 99 });
    } finally {
      await finish(other);
    }
    assert.equal(await usageCalls(stack.dataSource, accountId, keyId), 2);
  });
});
