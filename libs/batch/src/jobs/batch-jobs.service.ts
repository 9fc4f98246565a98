import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import {
  BATCH_DEBIT_REASON,
  BATCH_REFUND_REASON,
  CreditsService,
  LedgerRepository,
} from '@verity/accounts';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import {
  CREDIT_COST,
  type BatchJob,
  type BatchJobError,
  type BatchJobList,
  type BatchListQuery,
  type KeyMode,
} from '@verity/contracts';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import type { BatchJobRecord } from './batch-job.record';
import { BatchJobRepository, type NewBatchJob } from './batch-job.repository';
import { toBatchJob } from './batch-job.view';
import { decodeJobCursor, encodeJobCursor } from './job-cursor';
import { SigningSecretProvider } from './signing-secret.provider';

export { BATCH_DEBIT_REASON, BATCH_REFUND_REASON };

/** How long after a cancel a repeated DELETE runs the end's follow-up again (see `cancel`). */
const CANCEL_FOLLOW_UP_MS = 3_600_000;

/** Outcome of a creation: `created` is false when an Idempotency-Key replayed an earlier job. */
export interface CreatedJob {
  job: BatchJobRecord;
  created: boolean;
}

/**
 * Batch job lifecycle with its money: creation debits every row in the same transaction as the
 * insert; failure refunds the unprocessed rows in the same transaction as the status change. A
 * test job (created with a test key) moves no credits: no debit, no 402, no refund.
 * Transitions are guarded in SQL (`WHERE status = …`), so a replayed step is a no-op.
 */
@Injectable()
export class BatchJobsService {
  constructor(
    private readonly db: DataSource,
    private readonly jobs: BatchJobRepository,
    private readonly credits: CreditsService,
    private readonly ledger: LedgerRepository,
    private readonly secrets: SigningSecretProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  /**
   * Refuses early (before an upload is stored) an account already at its active-job limit.
   * A known Idempotency-Key passes: its repeat must reach `create` and replay the job (a client
   * retrying a lost answer would otherwise be told to wait for its own job).
   */
  async assertCanStart(accountId: string, idempotencyKey: string | null = null): Promise<void> {
    if (
      idempotencyKey !== null &&
      (await this.jobs.findByIdempotencyKey(accountId, idempotencyKey)) !== null
    )
      return;
    const active = await this.jobs.countActiveForAccount(accountId);
    if (active >= this.config.BATCH_MAX_ACTIVE_JOBS) throw this.tooManyActive();
  }

  /**
   * In one transaction: replays an Idempotency-Key (same request of the same mode → same job;
   * another request with the key → 422), enforces BATCH_MAX_ACTIVE_JOBS, debits `totalRows` credits (402) and
   * inserts the queued job. The account row lock serialises an account's creations.
   */
  async create(job: NewBatchJob): Promise<CreatedJob> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await this.jobs.lockAccount(job.accountId, runner);
      if (job.idempotencyKey !== null) {
        const earlier = await this.jobs.findByIdempotencyKey(
          job.accountId,
          job.idempotencyKey,
          runner,
        );
        if (earlier) {
          await runner.rollbackTransaction();
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
        throw this.tooManyActive();
      }
      if (job.mode !== 'test') await this.debit(job, runner);
      const created = await this.jobs.insert(job, runner);
      await runner.commitTransaction();
      this.metrics?.batchJobs.inc({ status: 'queued' });
      return { job: created, created: true };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
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

  /**
   * → failed, refunding in the same transaction the rows that no recorded chunk holds (the
   * chunks are counted under the job's row lock, which chunk recording takes too, so no chunk
   * is recorded after this). `reason` is the internal detail (stored, logged); `error` is what
   * the customer sees in `BatchJob.error`. Null if the job had already ended (a replay refunds
   * nothing twice).
   */
  async fail(
    jobId: string,
    reason: string,
    error: BatchJobError = {
      code: 'internal_error',
      message: 'the job could not be processed; unprocessed rows were refunded',
    },
  ): Promise<BatchJobRecord | null> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const job = await this.jobs.lockForWorker(jobId, runner);
      if (!job || (job.status !== 'queued' && job.status !== 'processing')) {
        await runner.rollbackTransaction();
        return null;
      }
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
      const failed = await this.jobs.markFailed(jobId, unprocessed, reason, error, runner);
      await runner.commitTransaction();
      this.metrics?.batchJobs.inc({ status: 'failed' });
      return failed;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * GET /v1/batch: a page of the tenant's jobs of `mode`, newest first, and the cursor of the
   * next page (null when this one is the last). A cursor naming no job of the tenant is 400.
   */
  async list(
    accountId: string,
    mode: KeyMode,
    query: BatchListQuery,
    requestBaseUrl?: string,
  ): Promise<BatchJobList> {
    const { jobs, next_cursor } = await this.page(accountId, mode, query);
    return {
      data: await Promise.all(jobs.map((job) => this.view(job, requestBaseUrl))),
      next_cursor,
    };
  }

  /** The stored jobs of a `list` page (the console shows more of each than BatchJob). */
  async page(
    accountId: string,
    mode: KeyMode,
    query: BatchListQuery,
  ): Promise<{ jobs: BatchJobRecord[]; next_cursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodeJobCursor(query.cursor);
    if (after !== undefined && !(await this.jobs.findForAccount(accountId, mode, after))) {
      throw new VerityError(
        'validation_error',
        'cursor is not valid: pass the next_cursor of the previous page',
      );
    }
    // One more than asked for tells whether a next page exists.
    const found = await this.jobs.listPage(accountId, mode, {
      limit: query.limit + 1,
      after,
      status: query.status,
    });
    const jobs = found.slice(0, query.limit);
    return {
      jobs,
      next_cursor: found.length > query.limit ? encodeJobCursor(jobs[jobs.length - 1].id) : null,
    };
  }

  /**
   * DELETE /v1/batch/{jobId}: a queued or processing job of the tenant → failed with
   * `error.code` cancelled, its unprocessed rows refunded in the same transaction (`fail`).
   * Idempotent: a job already cancelled comes back as it is, and nothing is refunded again. 404
   * for an unknown job or another tenant's or mode's; 422 for a job that ended otherwise (done,
   * or failed for another reason). `followUp` tells the caller to run the end's follow-up
   * (JobFinisher.afterEnd): when this call cancelled the job, and again on a repeat within
   * CANCEL_FOLLOW_UP_MS (a first call that failed after its commit left it undone; the
   * follow-up is idempotent, and its webhook enqueue is deduplicated for longer than that).
   */
  async cancel(
    accountId: string,
    mode: KeyMode,
    jobId: string,
  ): Promise<{ job: BatchJobRecord; followUp: boolean }> {
    const job = await this.jobs.findForAccount(accountId, mode, jobId);
    if (!job) throw new VerityError('not_found', `batch job ${jobId} not found`);
    const failed = await this.fail(jobId, 'cancelled by the account', {
      code: 'cancelled',
      message: 'the job was cancelled; unprocessed rows were refunded',
    });
    if (failed) return { job: failed, followUp: true };
    // It had ended, maybe a moment ago: answer from its final row.
    const ended = (await this.jobs.findForAccount(accountId, mode, jobId)) ?? job;
    if (ended.status === 'failed' && ended.failureCode === 'cancelled') {
      const endedMs = ended.finishedAt?.getTime() ?? 0;
      return { job: ended, followUp: Date.now() - endedMs < CANCEL_FOLLOW_UP_MS };
    }
    throw new VerityError(
      'unprocessable',
      ended.status === 'done'
        ? `batch job ${jobId} is done: a finished job cannot be cancelled`
        : `batch job ${jobId} already failed (${ended.failureCode ?? 'internal_error'}): there is nothing to cancel`,
    );
  }

  /** The BatchJob body, with a freshly signed result_url for a done job. */
  async view(job: BatchJobRecord, requestBaseUrl?: string): Promise<BatchJob> {
    if (job.status !== 'done') return toBatchJob(job, null);
    return toBatchJob(job, {
      baseUrl:
        this.config.PUBLIC_URL ??
        requestBaseUrl ??
        job.baseUrl ??
        `http://${this.config.HOST}:${this.config.PORT}`,
      secret: await this.secrets.secret(),
      ttlSeconds: this.config.DOWNLOAD_URL_TTL_SECONDS,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
  }

  private tooManyActive(): VerityError {
    return new VerityError(
      'rate_limited',
      `Too many active batch jobs: at most ${this.config.BATCH_MAX_ACTIVE_JOBS} may be queued or processing at once; retry when one finishes`,
      { 'Retry-After': '30' },
    );
  }
}
