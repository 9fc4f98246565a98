import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CURRENT_HOUR } from '../ledger.repository';

/** What a lease holds right now: reserved and neither settled as spent nor given back. */
const HELD = 'granted - spent - released';

/** The credits open leases of the account hold (spent or not, not yet settled). */
const HELD_BY_LEASES = `COALESCE((SELECT sum(${HELD}) FROM credit_leases
  WHERE account_id = accounts.id AND closed_at IS NULL), 0)`;

/** Spent calls of one (key, operation) since the last settle. */
export interface SpentUsage {
  keyId: string;
  operation: string;
  calls: number;
  credits: number;
}

/**
 * Credit leases (credit_leases, docs/credits.md): each statement moves a lease with the account
 * balance, ledger and usage rows it touches, in one implicit transaction that takes the account
 * row first.
 */
@Injectable()
export class LeaseRepository {
  constructor(private readonly db: DataSource) {}

  /** Unreserved credits plus what open leases still hold; null for an unknown account. */
  async balanceWithHeld(accountId: string): Promise<number | null> {
    const rows = await this.db.query<{ credits_balance: string }[]>(
      `SELECT credits_balance + ${HELD_BY_LEASES} AS credits_balance FROM accounts WHERE id = $1`,
      [accountId],
    );
    return rows.length === 0 ? null : Number(rows[0].credits_balance);
  }

  /**
   * Reserves up to `want` credits for `instance` in one statement (one implicit transaction): the
   * grant is capped at a quarter of the balance, so blocks shrink as the balance gets low, and
   * nothing is granted when the balance is under `minBalance` or the cap is under `cost`. The
   * account row lock serialises it with direct debits and other instances' reservations. A
   * refill adds to the instance's open lease. Returns the credits granted (0: none) and the lease.
   */
  async reserve(
    accountId: string,
    instance: string,
    want: number,
    minBalance: number,
    cost: number,
  ): Promise<{ granted: number; leaseId: string | null }> {
    const rows = await this.db.query<{ amount: string; id: string }[]>(
      `WITH cur AS (
         SELECT id, credits_balance, LEAST($2::bigint, credits_balance / 4) AS amount
         FROM accounts WHERE id = $1 FOR NO KEY UPDATE
       ), acc AS (
         UPDATE accounts a SET credits_balance = a.credits_balance - cur.amount
         FROM cur
         WHERE a.id = cur.id AND cur.credits_balance >= $3::bigint AND cur.amount >= $4::bigint
         RETURNING cur.amount, a.credits_balance AS after
       ), lease AS (
         INSERT INTO credit_leases AS l (account_id, instance_id, granted)
         SELECT $1, $5, amount FROM acc
         ON CONFLICT (account_id, instance_id) WHERE closed_at IS NULL
         DO UPDATE SET granted = l.granted + EXCLUDED.granted, heartbeat_at = now()
         RETURNING id
       ), ledger AS (
         INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
         SELECT $1, -acc.amount, 'lease_reserved', $5, acc.after FROM acc
       )
       SELECT acc.amount, lease.id FROM acc CROSS JOIN lease`,
      [accountId, want, minBalance, cost, instance],
    );
    if (rows.length === 0) return { granted: 0, leaseId: null };
    return { granted: Number(rows[0].amount), leaseId: rows[0].id };
  }

  /**
   * Settles a lease in one statement: `spent` credits (rolled into usage per key and operation),
   * `release` credits given back to the balance with a ledger row, a fresh heartbeat, and the
   * lease closed when `close`. Returns false when the lease is no longer open (another instance
   * recovered it after it expired): then nothing was written.
   *
   * Lock order when credits go back: the account row first (`FOR NO KEY UPDATE`, taken by `lk`
   * before the lease row is touched), then the lease, then the usage rows, the order of direct debits
   * (account, then usage) and reservations (account, then lease). PostgreSQL does not order one
   * statement's data-modifying parts, so without `lk` the usage upsert could run before the
   * account update and deadlock with a direct debit of the same key, operation and hour. A
   * settle that gives nothing back does not lock the account (its usage rows' foreign-key checks
   * take only `FOR KEY SHARE`), so the settles of busy instances do not queue on the account row.
   */
  async settle(
    leaseId: string,
    instance: string,
    usage: readonly SpentUsage[],
    release: number,
    close: boolean,
  ): Promise<boolean> {
    const spent = usage.reduce((sum, u) => sum + u.credits, 0);
    const rows = await this.db.query<{ settled: number }[]>(
      `WITH lk AS (
         SELECT a.id FROM accounts a
         WHERE a.id = (SELECT account_id FROM credit_leases WHERE id = $1) AND $3::bigint > 0
         FOR NO KEY UPDATE
       ), l AS (
         UPDATE credit_leases
         SET spent = spent + $2::bigint, released = released + $3::bigint, heartbeat_at = now(),
             closed_at = CASE WHEN $4::boolean THEN now() END
         WHERE id = $1 AND closed_at IS NULL AND ($3::bigint = 0 OR account_id = (SELECT id FROM lk))
         RETURNING account_id
       ), acc AS (
         UPDATE accounts a SET credits_balance = a.credits_balance + $3::bigint
         FROM l WHERE a.id = l.account_id AND $3::bigint > 0
         RETURNING a.id, a.credits_balance
       ), ledger AS (
         INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
         SELECT acc.id, $3::bigint, 'lease_released', $5, acc.credits_balance FROM acc
       ), usage AS (
         INSERT INTO usage_hourly AS u (account_id, hour, operation, key_id, calls, credits)
         SELECT l.account_id, ${CURRENT_HOUR}, t.op, t.k, t.c, t.cr
         FROM l CROSS JOIN unnest($6::text[], $7::uuid[], $8::bigint[], $9::bigint[]) AS t(op, k, c, cr)
         ON CONFLICT (account_id, hour, operation, key_id)
         DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits
       )
       SELECT count(*)::int AS settled FROM l`,
      [
        leaseId,
        spent,
        release,
        close,
        instance,
        usage.map((u) => u.operation),
        usage.map((u) => u.keyId),
        usage.map((u) => u.calls),
        usage.map((u) => u.credits),
      ],
    );
    return rows[0]?.settled === 1;
  }

  /**
   * Recovers every open lease whose instance has not settled for `expiryMs` (killed, partitioned
   * or stalled): closes it and gives what it held back to the balance with a `lease_recovered`
   * ledger row naming the instance. SKIP LOCKED lets several instances sweep at once. Returns
   * the number of leases recovered.
   */
  async recoverExpired(expiryMs: number): Promise<number> {
    const rows = await this.db.query<{ recovered: number }[]>(
      `WITH dead AS (
         SELECT id, account_id, instance_id, GREATEST(${HELD}, 0) AS amount
         FROM credit_leases
         WHERE closed_at IS NULL AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY account_id
         FOR UPDATE SKIP LOCKED
       ), closed AS (
         UPDATE credit_leases l SET released = l.released + dead.amount, closed_at = now()
         FROM dead WHERE l.id = dead.id
       ), per_account AS (
         SELECT account_id, sum(amount) AS amount, string_agg(instance_id, ' ') AS instances
         FROM dead GROUP BY account_id
       ), acc AS (
         UPDATE accounts a SET credits_balance = a.credits_balance + p.amount
         FROM per_account p WHERE a.id = p.account_id AND p.amount > 0
         RETURNING a.id, a.credits_balance
       ), ledger AS (
         INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after)
         SELECT acc.id, p.amount, 'lease_recovered', p.instances, acc.credits_balance
         FROM acc JOIN per_account p ON p.account_id = acc.id
       )
       SELECT count(*)::int AS recovered FROM dead`,
      [expiryMs],
    );
    return rows[0]?.recovered ?? 0;
  }

  /**
   * When leases of instances other than `instance` hold credits of the account, notifies them on
   * `channel` with `payload` (they give their credits back) in the same statement. Returns the
   * credits they held.
   */
  async askHoldersToRelease(
    accountId: string,
    instance: string,
    channel: string,
    payload: string,
  ): Promise<number> {
    const rows = await this.db.query<{ n: string }[]>(
      `WITH held AS (
         SELECT COALESCE(sum(${HELD}), 0)::bigint AS n FROM credit_leases
         WHERE account_id = $1 AND closed_at IS NULL AND instance_id <> $2
       )
       SELECT n, CASE WHEN n > 0 THEN pg_notify($3, $4) END AS notified FROM held`,
      [accountId, instance, channel, payload],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Sends `payload` on `channel` to every instance listening (NotificationListener). */
  async notify(channel: string, payload: string): Promise<void> {
    await this.db.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }
}
