import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import {
  BATCH_DEBIT_REASON,
  BATCH_REFUND_REASON,
  CreditsService,
  LedgerRepository,
} from '@verity/accounts';
import { VerityError } from '@verity/common';
import { inTransaction } from '@verity/database';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import { CREDIT_COST, type BatchJobError } from '@verity/contracts';
import type { BatchJobRecord } from '../batch-job.record';
import { BatchJobRepository } from '../batch-job.repository';
import { partialKey } from '../batch-names';
import { JobLifecycleRepository, type NewBatchJob } from './job-lifecycle.repository';
import { nextStatus } from '../job-states';

/** Outcome of a creation: `created` is false when an Idempotency-Key replayed an earlier job. */
export interface CreatedJob {
  job: BatchJobRecord;
  created: boolean;
}

/**
 * The transitions that move money, each in one transaction with its ledger movement, for
 * JobLifecycle: creation debits every row with the insert; a failure refunds the unprocessed
 * rows with the status change. A test job (created with a test key) moves no credits: no
 * debit, no 402, no refund.
 */
@Injectable()
export class JobTransactions {
  constructor(
    private readonly db: DataSource,
    private readonly states: JobLifecycleRepository,
    private readonly jobs: BatchJobRepository,
    private readonly credits: CreditsService,
    private readonly ledger: LedgerRepository,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  /**
   * Replays an Idempotency-Key (same request of the same mode → same job; another request
   * with the key → 422), enforces BATCH_MAX_ACTIVE_JOBS, debits `totalRows` credits (402) and
   * inserts the queued job. The account row lock serialises an account's creations.
   */
  create(job: NewBatchJob): Promise<CreatedJob> {
    return inTransaction(this.db, async (runner) => {
      await this.jobs.lockAccount(job.accountId, runner);
      if (job.idempotencyKey !== null) {
        const earlier = await this.jobs.findByIdempotencyKey(
          job.accountId,
          job.idempotencyKey,
          runner,
        );
        if (earlier) {
          if (earlier.requestHash !== job.requestHash || earlier.mode !== (job.mode ?? 'live')) {
            throw new VerityError(
              'unprocessable',
              'Idempotency-Key was already used for a different batch request (type, file, webhook_url, column, header or fields differ)',
            );
          }
          return { job: earlier, created: false };
        }
      }
      if (
        (await this.jobs.countActiveForAccount(job.accountId, runner)) >=
        this.config.BATCH_MAX_ACTIVE_JOBS
      ) {
        throw tooManyActive(this.config.BATCH_MAX_ACTIVE_JOBS);
      }
      if (job.mode !== 'test') await this.debit(job, runner);
      return { job: await this.states.insert(job, runner), created: true };
    });
  }

  /**
   * → failed, refunding the rows no recorded chunk holds (counted under the job's row lock,
   * which chunk recording takes too, so no chunk is recorded after this). `error.message` says
   * why; the stored message adds what was refunded (`refundNote`). A job that scored rows gets
   * its partial key with the failure, so partial_result_url shows from the first read of the
   * failed job. Null if the job had ended (a replay refunds nothing twice).
   */
  fail(jobId: string, reason: string, error: BatchJobError): Promise<BatchJobRecord | null> {
    return inTransaction(this.db, async (runner) => {
      const job = await this.states.lock(jobId, runner);
      if (!job || nextStatus(job.status, 'fail') === null) return null;
      const unprocessed = job.totalRows - (await this.jobs.recordedRows(jobId, runner));
      const refund = job.mode !== 'test' ? unprocessed * CREDIT_COST.batch_row : 0;
      if (refund > 0) {
        await this.ledger.applyMovementsIn(runner, job.accountId, [
          {
            delta: refund,
            reason: BATCH_REFUND_REASON,
            reference: job.id,
            keyId: job.keyId,
            usage: { operation: 'batch_row', calls: -unprocessed },
          },
        ]);
      }
      const message = `${error.message}; ${refundNote(unprocessed, refund, job.mode === 'test')}`;
      // Rows were scored: the end effects write them at the partial key (END_EFFECTS, `partial`).
      const partial = unprocessed < job.totalRows ? partialKey(jobId) : null;
      return this.states.markFailed(
        jobId,
        { refundedRows: unprocessed, partialKey: partial },
        reason,
        { ...error, message },
        runner,
      );
    });
  }

  /** Debits every row of a live job (402 when the balance is short). */
  private async debit(job: NewBatchJob, runner: QueryRunner): Promise<void> {
    const cost = job.totalRows * CREDIT_COST.batch_row;
    const { balanceBefore, outcomes } = await this.ledger.applyMovementsIn(runner, job.accountId, [
      {
        delta: -cost,
        reason: BATCH_DEBIT_REASON,
        reference: job.id,
        keyId: job.keyId,
        usage: { operation: 'batch_row', calls: job.totalRows },
      },
    ]);
    if (outcomes[0] === null) throw this.credits.insufficient(cost, balanceBefore);
  }
}

/**
 * What a failure refunded, as the job's error message states it: the true figures, 0 when
 * every row was scored (a cancel during assembly); a test job was never charged.
 */
export function refundNote(rows: number, credits: number, test: boolean): string {
  const count = `${rows.toLocaleString('en')} unprocessed ${rows === 1 ? 'row' : 'rows'}`;
  if (test) return `${count}, not charged (test job)`;
  if (rows === 0) return 'every row was scored: 0 rows refunded (0 credits)';
  return `${count} refunded (${credits.toLocaleString('en')} ${credits === 1 ? 'credit' : 'credits'})`;
}

/** 429 for an account at BATCH_MAX_ACTIVE_JOBS (also BatchJobsService's early check). */
export function tooManyActive(max: number): VerityError {
  return new VerityError(
    'rate_limited',
    `Too many active batch jobs: at most ${max} may be queued or processing at once; retry when one finishes`,
    { 'Retry-After': '30' },
  );
}
