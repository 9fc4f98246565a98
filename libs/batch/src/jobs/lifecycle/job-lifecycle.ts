import { Inject, Injectable, Optional } from '@nestjs/common';
import { VerityError } from '@verity/common';
import type { BatchJobError, KeyMode } from '@verity/contracts';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import type { BatchJobRecord } from '../batch-job.record';
import { BatchJobRepository } from '../batch-job.repository';
import { JobEndEffects } from './end-effects';
import { JobLifecycleRepository, type NewBatchJob } from './job-lifecycle.repository';
import { isEnded, nextStatus } from '../job-states';
import { JobTransactions, type CreatedJob } from './job-transactions';

/** How long after a cancel a repeated DELETE runs the end effects again (see `cancel`). */
const CANCEL_FOLLOW_UP_MS = 3_600_000;

/** Failures say why; `fail` adds what was refunded (JobTransactions.fail). */
const INTERNAL: BatchJobError = {
  code: 'internal_error',
  message: 'the job could not be processed',
};
const CANCELLED: BatchJobError = { code: 'cancelled', message: 'the job was cancelled' };

/**
 * The one door of a batch job's life (docs/batch.md, "Job lifecycle"): every change of status
 * is a method here, allowed only from the statuses JOB_STATES gives it (the guard of its
 * statement), committed with its ledger movement (JobTransactions), and every end — done, failed,
 * cancelled, whoever ended it — is followed here by the end effects (END_EFFECTS). Callers ask
 * for a transition; nothing else writes a status.
 *
 * Crash safety: the statement that ends a job also marks its end effects due
 * (`end_effects_due`); they run right after the commit and the mark is cleared once they all
 * ran. Each effect is idempotent and derived from the stored row, so a process that dies or
 * fails in between leaves the mark, and the effects run again: by the next report of the job
 * (`replayEnd`), a repeated cancel, or the recovery sweep (`replayDueEnds`).
 */
@Injectable()
export class JobLifecycle {
  constructor(
    private readonly states: JobLifecycleRepository,
    private readonly jobs: BatchJobRepository,
    private readonly transactions: JobTransactions,
    private readonly effects: JobEndEffects,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  /** → queued, debited in the same transaction (JobTransactions.create). */
  async create(job: NewBatchJob): Promise<CreatedJob> {
    const created = await this.transactions.create(job);
    if (created.created) this.metrics?.batchJobs.inc({ status: created.job.status });
    return created;
  }

  /**
   * `start`: queued → processing, or processing again (a re-split). Null for an unknown job or
   * one that ended; `resumed` when it was processing already.
   */
  async start(jobId: string): Promise<{ job: BatchJobRecord; resumed: boolean } | null> {
    const before = await this.jobs.findForWorker(jobId);
    if (!before || nextStatus(before.status, 'start') === null) return null;
    const job = await this.states.start(jobId);
    if (!job) return null;
    const resumed = before.status === job.status;
    if (!resumed) this.metrics?.batchJobs.inc({ status: job.status });
    return { job, resumed };
  }

  /**
   * `wait`: a processing job waits on purpose (a chunk held by the SMTP retry window). Its
   * status stays and its clock moves, so the stall sweep (BatchJobHousekeeping.claimStalled)
   * does not take the wait for a stall.
   */
  wait(jobId: string): Promise<void> {
    return this.states.wait(jobId);
  }

  /**
   * `finish`: processing → done with its result file, only once every chunk is recorded; then
   * the end effects. False if the job was not (or no longer) ready: another run finished it,
   * or it ended otherwise.
   */
  async finish(jobId: string, resultKey: string): Promise<boolean> {
    const done = await this.states.markDone(jobId, resultKey);
    if (!done) return false;
    this.metrics?.batchJobs.inc({ status: done.status });
    await this.afterEnd(done);
    return true;
  }

  /**
   * `fail`: → failed, refunding in the same transaction the rows no recorded chunk holds, then
   * the end effects. `reason` is the internal detail (stored, logged); `error` is what the
   * customer sees in `BatchJob.error`. `failed` is called once the failure committed, before
   * the end effects, with what the caller notes of it (a log line, a metric): an effect that
   * fails does not lose it. Null if the job had already ended (nothing is refunded twice).
   */
  async fail(
    jobId: string,
    reason: string,
    error: BatchJobError = INTERNAL,
    failed?: (job: BatchJobRecord) => void,
  ): Promise<BatchJobRecord | null> {
    const job = await this.transactions.fail(jobId, reason, error);
    if (!job) return null;
    this.metrics?.batchJobs.inc({ status: job.status });
    failed?.(job);
    await this.afterEnd(job);
    return job;
  }

  /**
   * DELETE /v1/batch/{jobId}: a queued or processing job of the tenant → failed with
   * `error.code` cancelled (`fail`), answered once its end effects ran (its partial file).
   * Idempotent: a job already cancelled comes back as it is, refunded once; a repeat within
   * CANCEL_FOLLOW_UP_MS runs the end effects again (a first call that failed after its commit
   * left them undone; each is idempotent, and the webhook's enqueue is deduplicated for longer
   * than that). 404 for an unknown job or another tenant's
   * or mode's; 422 for a job that ended otherwise (done, or failed for another reason).
   */
  async cancel(accountId: string, mode: KeyMode, jobId: string): Promise<BatchJobRecord> {
    const job = await this.jobs.findForAccount(accountId, mode, jobId);
    if (!job) throw new VerityError('not_found', `batch job ${jobId} not found`);
    const cancelled = await this.fail(jobId, 'cancelled by the account', CANCELLED);
    if (cancelled) return cancelled;
    // It had ended, maybe a moment ago: answer from its final row.
    const ended = (await this.jobs.findForAccount(accountId, mode, jobId)) ?? job;
    if (ended.status === 'failed' && ended.failureCode === 'cancelled') {
      const endedMs = ended.finishedAt?.getTime() ?? 0;
      if (Date.now() - endedMs < CANCEL_FOLLOW_UP_MS) await this.afterEnd(ended);
      return ended;
    }
    throw new VerityError(
      'unprocessable',
      ended.status === 'done'
        ? `batch job ${jobId} is done: a finished job cannot be cancelled`
        : `batch job ${jobId} already failed (${ended.failureCode ?? 'internal_error'}): there is nothing to cancel`,
    );
  }

  /**
   * Runs the end effects of `jobId` again if it has ended (each is idempotent): what a report
   * that arrives after the end asks for. False when the job is unknown or has not ended.
   */
  async replayEnd(jobId: string): Promise<boolean> {
    const job = await this.jobs.findForWorker(jobId);
    if (!job || !isEnded(job.status)) return false;
    await this.afterEnd(job);
    return true;
  }

  /**
   * The recovery sweep's part: runs again the end effects still due `olderThanMs` after their
   * job ended (its ender died or failed midway). Returns how many jobs it took up.
   */
  async replayDueEnds(olderThanMs: number): Promise<number> {
    const due = await this.states.findEndEffectsDue(olderThanMs);
    for (const jobId of due) await this.replayEnd(jobId);
    return due.length;
  }

  private async afterEnd(job: BatchJobRecord): Promise<void> {
    const { status } = job;
    if (!isEnded(status)) return;
    await this.effects.run({ ...job, status });
    await this.states.endEffectsRan(job.id);
  }
}
