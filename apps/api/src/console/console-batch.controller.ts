import { Controller, HttpCode, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { BatchJobRepository, BatchJobsService, JobLifecycle } from '@verity/batch';
import { VerityError } from '@verity/common';
import {
  batchListQuery,
  type BatchListQuery,
  type ConsoleBatchJob,
  type ConsoleBatchJobs,
} from '@verity/contracts';
import { BatchUploadService, isJobId } from '../batch/batch-upload.service';
import { localBaseUrl } from '../http/public-url';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';
import { consoleJob } from './console-job';
import { NoStore } from '../http/no-store';
import { ZodBodyPipe } from '../http/zod-body.pipe';

/**
 * Batch from the browser: the upload streams through the same BatchUploadService as
 * POST /v1/batch (same checks, charging and Idempotency-Key), charged to the account; the list
 * pages and a cancel refunds like GET and DELETE /v1/batch (BatchJobsService, JobLifecycle).
 */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsoleBatchController {
  constructor(
    private readonly uploads: BatchUploadService,
    private readonly jobs: BatchJobsService,
    private readonly repository: BatchJobRepository,
    private readonly lifecycle: JobLifecycle,
  ) {}

  @ConsoleRoute('jobs')
  @NoStore()
  async list(
    @Req() request: FastifyRequest,
    @Query(new ZodBodyPipe(batchListQuery)) query: BatchListQuery,
  ): Promise<ConsoleBatchJobs> {
    const { jobs, next_cursor } = await this.jobs.page(
      request.principal!.accountId,
      request.principal!.mode,
      query,
    );
    return { data: await Promise.all(jobs.map((j) => this.withResult(j, request))), next_cursor };
  }

  @ConsoleRoute('createJob')
  @NoStore()
  @HttpCode(202)
  async create(@Req() request: FastifyRequest): Promise<ConsoleBatchJob> {
    const { job } = await this.uploads.create(request.principal!, request);
    return this.withResult(job, request);
  }

  @ConsoleRoute('job')
  @NoStore()
  async get(
    @Req() request: FastifyRequest,
    @Param('jobId') jobId: string,
  ): Promise<ConsoleBatchJob> {
    const job = await this.repository.findForAccount(
      request.principal!.accountId,
      request.principal!.mode,
      jobId,
    );
    if (!job) throw new VerityError('not_found', `batch job ${jobId} not found`);
    return this.withResult(job, request);
  }

  /**
   * Cancels a queued or processing job (the guard checks Origin and the CSRF token): failed
   * with failure_code cancelled, its unprocessed rows refunded; a repeat answers the same job.
   * 404 for a job that is not the account's, 422 for one that ended otherwise.
   */
  @ConsoleRoute('cancelJob')
  @NoStore()
  @HttpCode(200)
  async cancel(
    @Req() request: FastifyRequest,
    @Param('jobId') jobId: string,
  ): Promise<ConsoleBatchJob> {
    if (!isJobId(jobId)) throw new VerityError('not_found', `batch job ${jobId} not found`);
    const { accountId, mode } = request.principal!;
    const job = await this.lifecycle.cancel(accountId, mode, jobId);
    return this.withResult(job, request);
  }

  private async withResult(
    job: Parameters<typeof consoleJob>[0],
    request: FastifyRequest,
  ): Promise<ConsoleBatchJob> {
    // The rule of /v1/batch: PUBLIC_URL, else the address the request arrived on; never the
    // Host header, which the client chooses (a signed link must not name a host of its choosing).
    const view = await this.jobs.view(job, localBaseUrl(request));
    return {
      ...consoleJob(job),
      result_url: view.result_url,
      partial_result_url: view.partial_result_url,
    };
  }
}
