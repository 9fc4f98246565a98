import { Inject, Injectable } from '@nestjs/common';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig, BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { BatchJob, BatchJobList, BatchListQuery, KeyMode } from '@verity/contracts';
import type { BatchJobRecord } from './batch-job.record';
import { BatchJobRepository } from './batch-job.repository';
import { hasDownload, toBatchJob } from './batch-job.view';
import { decodeJobCursor, encodeJobCursor } from './job-cursor';
import { tooManyActive } from './lifecycle/job-transactions';
import { SigningSecretProvider } from './signing-secret.provider';

/**
 * Batch jobs as a tenant reads them: the early active-job check, the job list and the BatchJob
 * body. A job's creation, its changes of status and its end are JobLifecycle's.
 */
@Injectable()
export class BatchJobsService {
  constructor(
    private readonly jobs: BatchJobRepository,
    private readonly secrets: SigningSecretProvider,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
  ) {}

  /**
   * Refuses early (before an upload is stored) an account already at its active-job limit.
   * A known Idempotency-Key passes: its repeat must reach JobLifecycle.create and replay the job (a client
   * retrying a lost answer would otherwise be told to wait for its own job).
   */
  async assertCanStart(accountId: string, idempotencyKey: string | null = null): Promise<void> {
    if (
      idempotencyKey !== null &&
      (await this.jobs.findByIdempotencyKey(accountId, idempotencyKey)) !== null
    )
      return;
    const active = await this.jobs.countActiveForAccount(accountId);
    if (active >= this.config.BATCH_MAX_ACTIVE_JOBS)
      throw tooManyActive(this.config.BATCH_MAX_ACTIVE_JOBS);
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
   * The BatchJob body, with a freshly signed result_url for a done job (partial_result_url for
   * a failed one with a partial file).
   */
  async view(job: BatchJobRecord, requestBaseUrl?: string): Promise<BatchJob> {
    if (!hasDownload(job)) return toBatchJob(job, null);
    return toBatchJob(job, {
      baseUrl:
        this.core.PUBLIC_URL ??
        requestBaseUrl ??
        job.baseUrl ??
        `http://${this.core.HOST}:${this.core.PORT}`,
      secret: await this.secrets.secret(),
      ttlSeconds: this.config.DOWNLOAD_URL_TTL_SECONDS,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
  }
}
