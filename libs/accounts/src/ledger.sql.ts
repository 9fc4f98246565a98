import type { QueryRunner } from 'typeorm';

/** One movement to record: negative `delta` debits. */
export interface LedgerMovement {
  delta: number;
  reason: string;
  reference: string | null;
}

/**
 * Inside an open transaction: locks the account row, applies as many `movements` (in order) as
 * the balance allows, appends their ledger rows and writes the new balance. Returns, per
 * movement, the balance after it or `null` when it was refused for lack of credits. Debits are
 * all-or-nothing per movement; credits always apply.
 */
export async function applyLedgerMovements(
  runner: QueryRunner,
  accountId: string,
  movements: readonly LedgerMovement[],
): Promise<{ balanceBefore: number; outcomes: (number | null)[] }> {
  const rows = (await runner.query(
    'SELECT credits_balance FROM accounts WHERE id = $1 FOR UPDATE',
    [accountId],
  )) as { credits_balance: string }[];
  if (rows.length === 0) throw new Error(`account ${accountId} does not exist`);
  const balanceBefore = Number(rows[0].credits_balance);
  let balance = balanceBefore;
  const outcomes: (number | null)[] = [];
  const accepted: { delta: number; reason: string; reference: string | null; after: number }[] = [];
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
    await runner.query(
      `INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
       SELECT $1, d, r, ref, b FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS t(d, r, ref, b)`,
      [
        accountId,
        accepted.map((a) => a.delta),
        accepted.map((a) => a.reason),
        accepted.map((a) => a.reference),
        accepted.map((a) => a.after),
      ],
    );
    await runner.query('UPDATE accounts SET credits_balance = $2 WHERE id = $1', [
      accountId,
      balance,
    ]);
  }
  return { balanceBefore, outcomes };
}

/**
 * The common case of a debit group in one statement (one round trip, one implicit
 * transaction): when the balance covers the whole group, take it off and append every ledger
 * row; otherwise change nothing and return null, and the caller applies the group movement by
 * movement with `applyLedgerMovements`. The UPDATE locks the account row and, under READ
 * COMMITTED, re-checks `credits_balance >= total` on the latest row version after any
 * concurrent writer commits, so the group can never overdraw.
 */
export async function debitWholeGroup(
  db: { query(sql: string, params: unknown[]): Promise<unknown> },
  accountId: string,
  movements: readonly LedgerMovement[],
): Promise<{ balanceBefore: number; outcomes: number[] } | null> {
  let total = 0;
  for (const m of movements) {
    if (m.delta >= 0) throw new Error('debitWholeGroup takes debits only');
    total -= m.delta;
  }
  const rows = (await db.query(
    `WITH acc AS (
       UPDATE accounts SET credits_balance = credits_balance - $2::bigint
       WHERE id = $1 AND credits_balance >= $2::bigint
       RETURNING credits_balance + $2::bigint AS before
     ), moves AS (
       SELECT d, r, ref, ord FROM unnest($3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY AS t(d, r, ref, ord)
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
       SELECT $1, m.d, m.r, m.ref, acc.before + sum(m.d) OVER (ORDER BY m.ord)
       FROM acc CROSS JOIN moves m
       ORDER BY m.ord
     )
     SELECT before FROM acc`,
    [
      accountId,
      total,
      movements.map((m) => m.delta),
      movements.map((m) => m.reason),
      movements.map((m) => m.reference),
    ],
  )) as { before: string }[];
  if (rows.length === 0) return null;
  const balanceBefore = Number(rows[0].before);
  let balance = balanceBefore;
  return { balanceBefore, outcomes: movements.map((m) => (balance += m.delta)) };
}
