import type { DataSource, QueryRunner } from 'typeorm';
import { AccountEntity, LedgerEntryEntity } from '@verity/database';

/** Key of usage started from the console itself (no API key), so it can be in usage's key. */
export const CONSOLE_KEY_ID = '00000000-0000-0000-0000-000000000000';

/** One movement to record: negative `delta` debits. */
export interface LedgerMovement {
  delta: number;
  reason: string;
  reference: string | null;
  /** The API key the movement is charged to (null: operator grants, top-ups, console work). */
  keyId?: string | null;
  /**
   * The usage this movement counts: `calls` made of `operation`, and `-delta` credits. A
   * refund counts negative calls and credits, so usage always nets to what was paid.
   */
  usage?: { operation: string; calls: number };
}

/** The UTC hour usage is counted in. */
export const CURRENT_HOUR = `date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/**
 * Rolls the usage of accepted movements into usage_hourly, summed per (operation, key). Raw
 * SQL: an additive upsert (`calls = u.calls + EXCLUDED.calls`), which TypeORM's `orUpdate`
 * (overwrite only) cannot write.
 */
const UPSERT_USAGE = `
  INSERT INTO usage_hourly AS u (account_id, hour, operation, key_id, calls, credits)
  SELECT $1, ${CURRENT_HOUR}, op, k, sum(c), sum(cr)
  FROM unnest($2::text[], $3::uuid[], $4::bigint[], $5::bigint[]) AS t(op, k, c, cr)
  GROUP BY op, k
  ON CONFLICT (account_id, hour, operation, key_id)
  DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits`;

/**
 * A refund nets its call's usage row to zero calls and zero credits when both fall in the
 * same hour: such a row is not usage, so it is removed in the refund's transaction.
 */
const DROP_NETTED_USAGE = `
  DELETE FROM usage_hourly
  WHERE account_id = $1 AND hour = ${CURRENT_HOUR} AND calls = 0 AND credits = 0`;

function usageParams(movements: readonly LedgerMovement[]): unknown[] | null {
  const counted = movements.filter((m) => m.usage);
  if (counted.length === 0) return null;
  return [
    counted.map((m) => m.usage!.operation),
    counted.map((m) => m.keyId ?? CONSOLE_KEY_ID),
    counted.map((m) => m.usage!.calls),
    counted.map((m) => -m.delta),
  ];
}

/**
 * Inside an open transaction: locks the account row, applies as many `movements` (in order) as
 * the balance allows, appends their ledger rows and writes the new balance. Returns, per
 * movement, the balance after it or `null` when it was refused for lack of credits. Debits are
 * all-or-nothing per movement; credits always apply. Usage of accepted movements is rolled up
 * in the same transaction, so usage always reconciles with the ledger.
 */
export async function applyLedgerMovements(
  runner: QueryRunner,
  accountId: string,
  movements: readonly LedgerMovement[],
): Promise<{ balanceBefore: number; outcomes: (number | null)[] }> {
  const account = await runner.manager
    .getRepository(AccountEntity)
    .createQueryBuilder('a')
    .select(['a.id', 'a.creditsBalance'])
    .where('a.id = :accountId', { accountId })
    // FOR NO KEY UPDATE: serialises balance changes like FOR UPDATE, but does not block other
    // transactions' foreign-key checks on the account (FOR KEY SHARE): a lease settle that holds
    // a usage row no longer waits on this lock for its foreign-key check. A settle that gives
    // credits back locks the account before its usage rows, the order taken here (lease.sql.ts).
    .setLock('for_no_key_update')
    .getOne();
  if (!account) throw new Error(`account ${accountId} does not exist`);
  const balanceBefore = account.creditsBalance;
  let balance = balanceBefore;
  const outcomes: (number | null)[] = [];
  const accepted: (LedgerMovement & { after: number })[] = [];
  for (const m of movements) {
    if (balance + m.delta < 0) {
      outcomes.push(null);
      continue;
    }
    balance += m.delta;
    outcomes.push(balance);
    accepted.push({ ...m, after: balance });
  }
  if (accepted.length > 0) {
    // One multi-row INSERT; no RETURNING of the generated id (nothing reads it back).
    await runner.manager
      .createQueryBuilder()
      .insert()
      .into(LedgerEntryEntity)
      .values(
        accepted.map((a) => ({
          accountId,
          delta: a.delta,
          reason: a.reason,
          reference: a.reference,
          balanceAfter: a.after,
          keyId: a.keyId ?? null,
        })),
      )
      .updateEntity(false)
      .execute();
    const usage = usageParams(accepted);
    if (usage) await runner.query(UPSERT_USAGE, [accountId, ...usage]);
    if (accepted.some((a) => a.usage && a.usage.calls < 0))
      await runner.query(DROP_NETTED_USAGE, [accountId]);
    await runner.manager.update(AccountEntity, { id: accountId }, { creditsBalance: balance });
  }
  return { balanceBefore, outcomes };
}

/**
 * The common case of a debit group in one statement (one round trip, one implicit
 * transaction): when the balance covers the whole group, take it off and append every ledger
 * row; otherwise change nothing and return null, and the caller applies the group movement by
 * movement with `applyLedgerMovements`. Usage is rolled up by the same statement. The UPDATE
 * locks the account row and, under READ
 * COMMITTED, re-checks `credits_balance >= total` on the latest row version after any
 * concurrent writer commits, so the group can never overdraw.
 */
export async function debitWholeGroup(
  db: DataSource,
  accountId: string,
  movements: readonly LedgerMovement[],
): Promise<{ balanceBefore: number; outcomes: number[] } | null> {
  let total = 0;
  for (const m of movements) {
    if (m.delta >= 0) throw new Error('debitWholeGroup takes debits only');
    total -= m.delta;
  }
  // Raw SQL: the per-call hot path — one CTE statement (balance, ledger rows, usage) is one
  // round trip and one implicit transaction, which the query builder cannot compose.
  const rows = await db.query<{ before: string }[]>(
    `WITH acc AS (
       UPDATE accounts SET credits_balance = credits_balance - $2::bigint
       WHERE id = $1 AND credits_balance >= $2::bigint
       RETURNING credits_balance + $2::bigint AS before
     ), moves AS (
       SELECT d, r, ref, k, op, c, ord
       FROM unnest($3::bigint[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::bigint[])
         WITH ORDINALITY AS t(d, r, ref, k, op, c, ord)
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after, key_id)
       SELECT $1, m.d, m.r, m.ref, acc.before + sum(m.d) OVER (ORDER BY m.ord), m.k
       FROM acc CROSS JOIN moves m
       ORDER BY m.ord
     ), usage AS (
       INSERT INTO usage_hourly AS u (account_id, hour, operation, key_id, calls, credits)
       SELECT $1, ${CURRENT_HOUR}, m.op,
              COALESCE(m.k, '${CONSOLE_KEY_ID}'::uuid), sum(m.c), sum(-m.d)
       FROM acc CROSS JOIN moves m
       WHERE m.op IS NOT NULL
       GROUP BY m.op, COALESCE(m.k, '${CONSOLE_KEY_ID}'::uuid)
       ON CONFLICT (account_id, hour, operation, key_id)
       DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits
     )
     SELECT before FROM acc`,
    [
      accountId,
      total,
      movements.map((m) => m.delta),
      movements.map((m) => m.reason),
      movements.map((m) => m.reference),
      movements.map((m) => m.keyId ?? null),
      movements.map((m) => m.usage?.operation ?? null),
      movements.map((m) => m.usage?.calls ?? 0),
    ],
  );
  if (rows.length === 0) return null;
  const balanceBefore = Number(rows[0].before);
  let balance = balanceBefore;
  return { balanceBefore, outcomes: movements.map((m) => (balance += m.delta)) };
}
