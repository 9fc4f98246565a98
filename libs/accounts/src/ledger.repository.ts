import { Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import type { LedgerPage } from '@verity/contracts/wire';
import type { StatementBatchJob, StatementCredit } from '@verity/contracts';
import { AccountEntity, ApiKeyEntity, inTransaction, LedgerEntryEntity } from '@verity/database';

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
 * Lease movements (docs/credits.md) reference the API instance that reserved the credits: an
 * operator's detail (it stays in the table), not something the account's billing page shows.
 */
const INSTANCE_REFERENCED = new Set(['lease_reserved', 'lease_released', 'lease_recovered']);

/** Ledger reasons of credits an operator added: what a customer bought. */
const CREDITS_ADDED: StatementCredit['reason'][] = ['grant', 'top_up'];

/** Ledger reasons of a batch job's charge at creation and of its refund (reference: the job id). */
export const BATCH_DEBIT_REASON = 'batch_row';
export const BATCH_REFUND_REASON = 'batch_refund';

/**
 * The credit ledger (credit_ledger) with the balance and usage it moves together under the
 * account row lock: movements in a transaction of their own or of the caller
 * (`applyMovementsIn`), the grouped debit in one statement, and the ledger's pages.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Inside an open transaction: locks the account row, applies as many `movements` (in order) as
   * the balance allows, appends their ledger rows and writes the new balance. Returns, per
   * movement, the balance after it or `null` when it was refused for lack of credits. Debits are
   * all-or-nothing per movement; credits always apply. Usage of accepted movements is rolled up
   * in the same transaction, so usage always reconciles with the ledger.
   */
  async applyMovementsIn(
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
      // a usage row does not wait on this lock for its foreign-key check. A settle that gives
      // credits back locks the account before its usage rows, the order taken here (lease.repository.ts).
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

  /** `applyMovementsIn` in a transaction of its own. */
  async applyMovements(
    accountId: string,
    movements: readonly LedgerMovement[],
  ): Promise<{ balanceBefore: number; outcomes: (number | null)[] }> {
    return inTransaction(this.db, (runner) => this.applyMovementsIn(runner, accountId, movements));
  }

  /**
   * The common case of a debit group in one statement (one round trip, one implicit
   * transaction): when the balance covers the whole group, take it off and append every ledger
   * row; otherwise change nothing and return null, and the caller applies the group movement by
   * movement with `applyMovements`. Usage is rolled up by the same statement. The UPDATE
   * locks the account row and, under READ
   * COMMITTED, re-checks `credits_balance >= total` on the latest row version after any
   * concurrent writer commits, so the group can never overdraw.
   */
  async debitWholeGroup(
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
    const rows = await this.db.query<{ before: string }[]>(
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

  /**
   * A page of the account's ledger, newest first, on the (account_id, id) index (the query
   * builder's raw rows: a join's columns, not entities).
   */
  async page(accountId: string, before: string | null, limit: number): Promise<LedgerPage> {
    const query = this.db
      .getRepository(LedgerEntryEntity)
      .createQueryBuilder('l')
      .leftJoin(ApiKeyEntity, 'k', 'k.id = l.keyId AND k.accountId = l.accountId')
      .select(['l.id AS id', 'l.createdAt AS created_at', 'l.reason AS reason'])
      .addSelect(['l.keyId AS key_id', 'k.name AS key_name', 'l.delta AS delta'])
      .addSelect(['l.balanceAfter AS balance_after', 'l.reference AS reference'])
      .where('l.accountId = :accountId', { accountId })
      .orderBy('l.id', 'DESC')
      .limit(limit + 1);
    if (before !== null) query.andWhere('l.id < :before', { before });
    const rows = await query.getRawMany<{
      id: string;
      created_at: Date;
      reason: string;
      key_id: string | null;
      key_name: string | null;
      delta: string;
      balance_after: string;
      reference: string | null;
    }>();
    const data = rows.slice(0, limit).map((r) => ({
      id: String(r.id),
      created_at: r.created_at.toISOString(),
      reason: r.reason,
      key_id: r.key_id,
      key_name: r.key_name,
      delta: Number(r.delta),
      balance_after: Number(r.balance_after),
      reference: INSTANCE_REFERENCED.has(r.reason) ? null : r.reference,
    }));
    return { data, next_before: rows.length > limit ? data[data.length - 1].id : null };
  }

  /** The account's first ledger row's time (its opening grant), null for an empty ledger. */
  async firstMovementAt(accountId: string): Promise<Date | null> {
    const first = await this.db
      .getRepository(LedgerEntryEntity)
      .createQueryBuilder('l')
      .select('l.createdAt', 'created_at')
      .where('l.accountId = :accountId', { accountId })
      .orderBy('l.id', 'ASC')
      .limit(1)
      .getRawOne<{ created_at: Date }>();
    return first?.created_at ?? null;
  }

  /** Top-ups and grants from `from` up to `to`, newest first, at most `limit`. */
  async creditsAdded(
    accountId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<StatementCredit[]> {
    const rows = await this.db
      .getRepository(LedgerEntryEntity)
      .createQueryBuilder('l')
      .select(['l.createdAt AS at', 'l.reason AS reason', 'l.delta AS credits'])
      .where('l.accountId = :accountId', { accountId })
      .andWhere('l.reason IN (:...reasons)', { reasons: CREDITS_ADDED })
      .andWhere('l.createdAt >= :from AND l.createdAt < :to', { from, to })
      .orderBy('l.id', 'DESC')
      .limit(limit)
      .getRawMany<{ at: Date; reason: StatementCredit['reason']; credits: string }>();
    return rows.map((r) => ({
      at: r.at.toISOString(),
      reason: r.reason,
      credits: Number(r.credits),
    }));
  }

  /**
   * Batch jobs charged from `from` up to `to`, newest first, at most `limit`: each job's charge
   * and its refund, whenever the refund came. Raw SQL: per-reason FILTER aggregates over the
   * job's rows, which the query builder cannot express.
   */
  async batchCharges(
    accountId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<StatementBatchJob[]> {
    const rows = await this.db.query<
      {
        job_id: string;
        file_name: string | null;
        type: string | null;
        charged_at: Date;
        charged: string;
        refunded: string;
      }[]
    >(
      `SELECT l.reference AS job_id, j.file_name, j.type, min(l.created_at) FILTER (WHERE l.reason = $4) AS charged_at,
              COALESCE(sum(-l.delta) FILTER (WHERE l.reason = $4), 0) AS charged,
              COALESCE(sum(l.delta) FILTER (WHERE l.reason = $5), 0) AS refunded
       FROM credit_ledger l
       LEFT JOIN batch_jobs j ON j.id = l.reference AND j.account_id = l.account_id
       WHERE l.account_id = $1 AND l.reason IN ($4, $5)
         AND l.reference IN (SELECT reference FROM credit_ledger
                             WHERE account_id = $1 AND reason = $4 AND created_at >= $2 AND created_at < $3)
       GROUP BY l.reference, j.file_name, j.type
       ORDER BY charged_at DESC
       LIMIT $6`,
      [accountId, from, to, BATCH_DEBIT_REASON, BATCH_REFUND_REASON, limit],
    );
    return rows.map((r) => ({
      job_id: r.job_id,
      file_name: r.file_name,
      type: r.type,
      charged_at: r.charged_at.toISOString(),
      charged: Number(r.charged),
      refunded: Number(r.refunded),
    }));
  }
}
