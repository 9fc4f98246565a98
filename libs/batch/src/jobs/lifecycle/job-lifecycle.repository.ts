import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BatchJobError, BatchResultFields, BatchType, KeyMode } from '@verity/contracts';
import { BatchJobEntity, entitiesFromRows } from '@verity/database';
import type { BatchJobRecord } from '../batch-job.record';
import { updateJobReturning } from '../batch-job.repository';
import { managerOf, type Db } from '../batch-jobs.db';
import { END_STATUSES, fromStatuses, INITIAL_STATUS, targetOf } from '../job-states';
import { READY_TO_FINISH, statusIn } from '../job-status.sql';

/** What a new job row holds. */
export interface NewBatchJob {
  id: string;
  accountId: string;
  /** The API key that created the job (CONSOLE_KEY_ID from the console); usage is counted on it. */
  keyId: string | null;
  /** The mode of that key (live when absent): a test job is free and shows only to test keys. */
  mode?: KeyMode;
  type: BatchType;
  totalRows: number;
  uploadKey: string;
  /** The uploaded file's name, cleaned (`uploadFileName`); null when the client sent none. */
  fileName?: string | null;
  webhookUrl: string | null;
  baseUrl: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** A multi-column upload's format, resolved at upload; absent for a single-column file. */
  input?: NewJobInput | null;
  /** Which result columns the file gets; `spec` when absent. */
  resultFields?: BatchResultFields;
  /** The job asks mail servers about its addresses; false when absent. */
  smtpProbe?: boolean;
  /** A phone job's country for every row (ISO 3166-1 alpha-2, upper case); none when absent. */
  countryHint?: string | null;
  /** A phone job's column of each row's country, resolved (0-based); none when absent. */
  countryColumn?: number | null;
}

/** A multi-column upload as resolved by the upload's reader (docs/batch.md, "Multi-column files"). */
export interface NewJobInput {
  /** The validated column, 0-based. */
  column: number;
  /** The header record as uploaded, without its terminator; null when the file had none. */
  header: string | null;
  /** How many columns every record has. */
  width: number;
}

/**
 * The job's summary (`BatchJob.summary`, docs/batch.md "Summary"), set by the statement that
 * ends it: the sum of its recorded chunks' verdict counts per verdict. Null without a recorded
 * chunk, or when one was recorded without counts. Raw SQL: a per-key sum over jsonb, which the
 * query builder does not express. No chunk is recorded after the end (recordChunks checks the
 * status under the job's lock), so the sum stays that of the rows the job is charged for.
 */
const SUMMARY_OF_CHUNKS = `(
  SELECT CASE WHEN bool_and(c.verdicts IS NOT NULL) THEN (
           SELECT jsonb_object_agg(e.key, e.n)
             FROM (SELECT v.key, sum(v.value::int) AS n
                     FROM batch_chunks c2 CROSS JOIN LATERAL jsonb_each_text(c2.verdicts) v
                    WHERE c2.job_id = batch_jobs.id GROUP BY v.key) e) END
    FROM batch_chunks c WHERE c.job_id = batch_jobs.id)`;

/**
 * The statements that write batch_jobs.status, and the end effects' mark, for JobLifecycle
 * alone: each is guarded by the statuses its transition leaves from (`fromStatuses`), so a
 * replayed or refused transition changes nothing. The other batch_jobs columns stay with
 * BatchJobRepository, BatchAssemblyRepository, BatchProgressRepository and BatchJobHousekeeping.
 */
@Injectable()
export class JobLifecycleRepository {
  constructor(private readonly db: DataSource) {}

  private jobs(db: Db = this.db) {
    return managerOf(db).getRepository(BatchJobEntity);
  }

  /** Inserts the job in its initial status (inside the debit's transaction). */
  async insert(job: NewBatchJob, db: Db): Promise<BatchJobRecord> {
    const { input, resultFields, smtpProbe, countryHint, countryColumn, ...fields } = job;
    const result = await managerOf(db)
      .createQueryBuilder()
      .insert()
      .into(BatchJobEntity)
      .values({
        ...fields,
        status: INITIAL_STATUS,
        inputColumn: input?.column ?? null,
        inputHeader: input?.header ?? null,
        inputWidth: input?.width ?? null,
        resultFields: resultFields ?? 'spec',
        smtpProbe: smtpProbe ?? false,
        countryHint: countryHint ?? null,
        countryColumn: countryColumn ?? null,
      })
      .returning('*')
      .execute();
    return entitiesFromRows(managerOf(db), BatchJobEntity, result.raw)[0];
  }

  /** `start`; the job as it now is, or null once it ended. */
  start(jobId: string): Promise<BatchJobRecord | null> {
    return updateJobReturning(this.db, (qb) =>
      qb
        .set({ status: targetOf('start'), updatedAt: () => 'now()' })
        .where(`id = :jobId AND ${statusIn(fromStatuses('start'))}`, { jobId }),
    );
  }

  /** `wait`: the status stays, updated_at moves (the stall sweep's clock). */
  async wait(jobId: string): Promise<void> {
    await this.jobs()
      .createQueryBuilder()
      .update()
      .set({ updatedAt: () => 'now()' })
      .where(`id = :jobId AND ${statusIn(fromStatuses('wait'))}`, { jobId })
      .execute();
  }

  /** Locks and returns a job (inside a transaction): what `fail` decides on. */
  lock(jobId: string, db: Db): Promise<BatchJobRecord | null> {
    return this.jobs(db)
      .createQueryBuilder('j')
      .where('j.id = :jobId', { jobId })
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * `fail`, with the refunded row count, the key of its partial file when rows were scored,
   * the reason (inside the refund's transaction), and the summary of the chunks recorded so far.
   */
  markFailed(
    jobId: string,
    { refundedRows, partialKey }: { refundedRows: number; partialKey: string | null },
    reason: string,
    error: BatchJobError,
    db: Db,
  ): Promise<BatchJobRecord | null> {
    return updateJobReturning(db, (qb) =>
      qb
        .set({
          status: targetOf('fail'),
          refundedRows,
          partialKey,
          failureReason: reason,
          failureCode: error.code,
          failureMessage: error.message,
          summary: () => SUMMARY_OF_CHUNKS,
          endEffectsDue: true,
          updatedAt: () => 'now()',
          finishedAt: () => 'now()',
        })
        .where(`id = :jobId AND ${statusIn(fromStatuses('fail'))}`, { jobId }),
    );
  }

  /**
   * `finish`, only when every chunk is recorded, ending the assembly claim, with the job's
   * summary. Null if another run
   * got there first (its result file has the same bytes, so either upload stands) or the job
   * ended otherwise.
   */
  markDone(jobId: string, resultKey: string): Promise<BatchJobRecord | null> {
    return updateJobReturning(this.db, (qb) =>
      qb
        .set({
          status: targetOf('finish'),
          resultKey,
          processedRows: () => 'total_rows',
          assemblyToken: null,
          assemblyLeaseUntil: null,
          summary: () => SUMMARY_OF_CHUNKS,
          endEffectsDue: true,
          updatedAt: () => 'now()',
          finishedAt: () => 'now()',
        })
        .where(`id = :jobId AND ${READY_TO_FINISH}`, { jobId }),
    );
  }

  /** Ended jobs whose end effects are still due `olderThanMs` after the end, oldest first. */
  async findEndEffectsDue(olderThanMs: number, limit = 100): Promise<string[]> {
    const jobs = await this.jobs()
      .createQueryBuilder('j')
      .select('j.id')
      .where(
        `j.end_effects_due AND ${statusIn(END_STATUSES, 'j')}
           AND j.finished_at < now() - (CAST(:olderThanMs AS integer) * interval '1 millisecond')`,
        { olderThanMs },
      )
      .orderBy('j.finished_at')
      .limit(limit)
      .getMany();
    return jobs.map((j) => j.id);
  }

  /** The end effects of the job ran. */
  async endEffectsRan(jobId: string): Promise<void> {
    await this.jobs().update({ id: jobId, endEffectsDue: true }, { endEffectsDue: false });
  }
}
