import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Principal } from '@verity/accounts';
import { BatchJobRepository, BatchJobsService } from '@verity/batch';
import { VerityError } from '@verity/common';
import { batchJobSchema, type BatchJob } from '@verity/contracts';
import { ApiCall } from '../auth/api-call.hook';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { localBaseUrl } from '../http/public-url';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { BatchDownloadService } from './batch-download.service';
import { BatchUploadService, isJobId } from './batch-upload.service';
import { NoStore } from '../http/no-store';

/** Batch jobs: create from a CSV upload, poll, download the result by signed link. */
@ApiTags('batch')
@Controller('v1/batch')
export class BatchController {
  constructor(
    private readonly uploads: BatchUploadService,
    private readonly downloads: BatchDownloadService,
    private readonly jobs: BatchJobsService,
    private readonly repository: BatchJobRepository,
  ) {}

  @Post()
  @NoStore()
  @HttpCode(202)
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @ApiDoc({
    summary:
      'Create a batch job from a single-column CSV (multipart: type, file, webhook_url); 1 credit per row',
    ok: batchJobSchema,
    okStatus: 202,
    errors: [400, 401, 402, 413, 422, 429],
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchJob> {
    const { job, created } = await this.uploads.create(principal, request);
    if (!created) void reply.header('Idempotent-Replayed', 'true');
    return this.jobs.view(job, localBaseUrl(request));
  }

  @Get(':jobId')
  @NoStore()
  @ApiCall({ ok: batchJobSchema })
  @ApiDoc({
    summary: 'A batch job; result_url is freshly signed once done',
    ok: batchJobSchema,
    errors: [401, 404, 429],
  })
  async get(
    principal: Principal,
    _body: undefined,
    request: FastifyRequest<{ Params: { jobId: string } }>,
  ): Promise<BatchJob> {
    // An ApiCall route: polled by every client waiting on a job, so it takes the one-pass path.
    const { jobId } = request.params;
    const job = isJobId(jobId)
      ? await this.repository.findForAccount(principal.accountId, jobId)
      : null;
    if (!job) throw new VerityError('not_found', `batch job ${jobId} not found`);
    return this.jobs.view(job, localBaseUrl(request));
  }

  @Get(':jobId/download')
  @ApiDoc({
    summary: 'Download a result CSV (authenticated by the sig of result_url, no API key)',
    ok: z.string().describe('text/csv: the result file'),
    errors: [403, 404, 410],
    authenticated: false,
  })
  async download(
    @Param('jobId') jobId: string,
    @Query('sig') sig: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.downloads.open(jobId, typeof sig === 'string' ? sig : undefined);
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="verity-${file.type}-${file.jobId}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(file.body);
  }
}
