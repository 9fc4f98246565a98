import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { FeedbackOutcome, KeyMode } from '@verity/contracts';
import { VerifyFeedbackEntity } from '@verity/database';
import type { CallValues } from '../store/history-store.port';
import type { HistoryScope } from '../values/value-keys';

/** An outcome to record: of a call (`requestId`) or of values. */
export interface NewReport {
  scope: HistoryScope;
  requestId: string | null;
  outcome: FeedbackOutcome;
  values: CallValues;
  at: number;
}

/** The outcome a call had before a new report of it. */
export interface PreviousReport {
  outcome: FeedbackOutcome;
  reportedAt: number;
}

/** A value's report weights now, from every report of the retention period. */
export interface ReportWeightRow {
  accountId: string;
  mode: KeyMode;
  key: string;
  fraud: number;
  legitimate: number;
}

/** Labelled calls with one fraud_score and outcome. */
export interface ScoreCount {
  score: number;
  outcome: FeedbackOutcome;
  calls: number;
}

/** Labelled calls on which one reason appeared, by outcome. */
export interface ReasonCount {
  code: string;
  direction: 'risk' | 'credit';
  outcome: FeedbackOutcome;
  calls: number;
}

const DELETE_BATCH = 10_000;

/** The verify_feedback table: the outcomes accounts reported (docs/history.md). */
@Injectable()
export class VerifyFeedbackRepository {
  constructor(private readonly db: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Records a report and answers the outcome the call had before (null for a first report or a
   * report by value). A call keeps one row, its latest outcome. Raw SQL: the previous row is
   * read in the same statement as the upsert (a CTE sees the table as it was).
   */
  async record(report: NewReport, manager: EntityManager): Promise<PreviousReport | null> {
    const params = [
      report.scope.accountId,
      report.scope.mode,
      report.requestId,
      report.outcome,
      report.values.email ?? null,
      report.values.phone ?? null,
      report.values.ip ?? null,
      report.values.subnet ?? null,
      new Date(report.at),
    ];
    const insert = `INSERT INTO verify_feedback (account_id, mode, request_id, outcome, email_hash,
                      phone_hash, ip_hash, subnet_hash, reported_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
    if (report.requestId === null) {
      await manager.query(insert, params);
      return null;
    }
    const rows = await manager.query<{ outcome: FeedbackOutcome; reported_at: Date }[]>(
      `WITH previous AS (
         SELECT outcome, reported_at FROM verify_feedback
         WHERE account_id = $1 AND request_id = $3 FOR UPDATE),
       saved AS (
         ${insert}
         ON CONFLICT (account_id, request_id) DO UPDATE
           SET outcome = EXCLUDED.outcome, reported_at = EXCLUDED.reported_at
         RETURNING 1)
       SELECT outcome, reported_at FROM previous, saved`,
      params,
    );
    return rows.length === 0
      ? null
      : { outcome: rows[0].outcome, reportedAt: rows[0].reported_at.getTime() };
  }

  /**
   * Every value's report weights at `at` from the reports made since `since` (each weighs
   * 2^(−age / half-life)): what the history store holds, rebuilt after a restart. Raw SQL: the
   * four value columns are unnested into one key column and summed per value.
   */
  async reportWeights(at: number, halfLifeMs: number, since: Date): Promise<ReportWeightRow[]> {
    const rows = await this.db.query<
      { account_id: string; mode: KeyMode; key: string; fraud: number; legitimate: number }[]
    >(
      `SELECT account_id, mode, key,
              sum(CASE WHEN outcome = 'fraud' THEN w ELSE 0 END)::float8 AS fraud,
              sum(CASE WHEN outcome = 'legitimate' THEN w ELSE 0 END)::float8 AS legitimate
       FROM (SELECT account_id, mode, outcome,
                    power(2, -greatest(0, $1 - extract(epoch FROM reported_at) * 1000) / $2) AS w,
                    unnest(ARRAY[email_hash, phone_hash, ip_hash, subnet_hash]) AS key
             FROM verify_feedback WHERE reported_at >= $3) r
       WHERE key IS NOT NULL
       GROUP BY account_id, mode, key`,
      [at, halfLifeMs, since],
    );
    return rows.map((r) => ({
      accountId: r.account_id,
      mode: r.mode,
      key: r.key,
      fraud: Number(r.fraud),
      legitimate: Number(r.legitimate),
    }));
  }

  /** Labelled calls made since `since`, counted per fraud_score and outcome. */
  async labelledScores(scope: HistoryScope, since: Date): Promise<ScoreCount[]> {
    const rows = await this.db.query<{ score: number; outcome: FeedbackOutcome; calls: string }[]>(
      `SELECT c.fraud_score AS score, f.outcome, count(*) AS calls
       FROM verify_feedback f
       JOIN verify_calls c ON c.request_id = f.request_id AND c.account_id = f.account_id
       WHERE f.account_id = $1 AND f.mode = $2 AND c.created_at >= $3
       GROUP BY 1, 2`,
      [scope.accountId, scope.mode, since],
    );
    return rows.map((r) => ({ score: r.score, outcome: r.outcome, calls: Number(r.calls) }));
  }

  /**
   * Labelled calls made since `since`, counted per reason and outcome. Raw SQL: the two reason
   * arrays are unnested with their direction.
   */
  async labelledReasons(scope: HistoryScope, since: Date): Promise<ReasonCount[]> {
    const rows = await this.db.query<
      { code: string; direction: 'risk' | 'credit'; outcome: FeedbackOutcome; calls: string }[]
    >(
      `SELECT r.code, r.direction, f.outcome, count(*) AS calls
       FROM verify_feedback f
       JOIN verify_calls c ON c.request_id = f.request_id AND c.account_id = f.account_id
       CROSS JOIN LATERAL (
         SELECT unnest(c.risk_reasons) AS code, 'risk' AS direction
         UNION ALL SELECT unnest(c.credit_reasons), 'credit') r
       WHERE f.account_id = $1 AND f.mode = $2 AND c.created_at >= $3
       GROUP BY 1, 2, 3`,
      [scope.accountId, scope.mode, since],
    );
    return rows.map((r) => ({ ...r, calls: Number(r.calls) }));
  }

  /** Deletes reports made before `cutoff`, a batch at a time; answers how many went. */
  async deleteBefore(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const { affected } = await this.db
        .getRepository(VerifyFeedbackEntity)
        .createQueryBuilder()
        .delete()
        .where(
          `id IN (SELECT id FROM verify_feedback WHERE reported_at < :cutoff LIMIT ${DELETE_BATCH})`,
          { cutoff },
        )
        .execute();
      total += affected ?? 0;
      if ((affected ?? 0) < DELETE_BATCH) return total;
    }
  }
}
