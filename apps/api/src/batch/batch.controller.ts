import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import { BatchJobRepository, BatchJobsService, JobLifecycle } from '@verity/batch';
import { VerityError } from '@verity/common';
import {
  BATCH_LIST_STATUSES,
  batchCreateForm,
  batchJobListSchema,
  batchJobSchema,
  batchListQuery,
  type BatchJob,
  type BatchJobList,
  type BatchListQuery,
  resultFileName,
} from '@verity/contracts';
import { ApiCall } from '../auth/api-call.hook';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { localBaseUrl } from '../http/public-url';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { BatchDownloadService } from './batch-download.service';
import { attachment } from './content-disposition';
import { BatchUploadService, isJobId } from './batch-upload.service';
import { NoStore } from '../http/no-store';
import { ZodBodyPipe } from '../http/zod-body.pipe';

const JOB_ID = {
  name: 'jobId',
  description: 'The id POST /v1/batch returned (BatchJob.id)',
  schema: { type: 'string' },
};

/** Batch jobs: create from a CSV upload, poll, download the result by signed link. */
@ApiTags('batch')
@Controller('v1/batch')
export class BatchController {
  constructor(
    private readonly uploads: BatchUploadService,
    private readonly downloads: BatchDownloadService,
    private readonly jobs: BatchJobsService,
    private readonly repository: BatchJobRepository,
    private readonly lifecycle: JobLifecycle,
  ) {}

  @Get()
  @NoStore()
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @ApiDoc({
    operationId: 'listBatches',
    summary: 'The caller’s batch jobs, newest first, a page at a time (added in v1)',
    ok: batchJobListSchema,
    okDescription: 'A page of jobs and the cursor of the next one (docs/batch.md, "Listing jobs")',
    errors: [400, 401, 429],
  })
  // Listed bottom-up: the document shows limit, cursor, status.
  @ApiQuery({
    name: 'status',
    required: false,
    description:
      'Only jobs in this state; `cancelled` (added in v1): the failed jobs the account cancelled, which `failed` lists too',
    schema: { type: 'string', enum: [...BATCH_LIST_STATUSES] },
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    description: 'next_cursor of the previous page',
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodBodyPipe(batchListQuery)) query: BatchListQuery,
    @Req() request: FastifyRequest,
  ): Promise<BatchJobList> {
    return this.jobs.list(principal.accountId, principal.mode, query, localBaseUrl(request));
  }

  @Post()
  @NoStore()
  @HttpCode(202)
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @ApiDoc({
    operationId: 'createBatch',
    summary:
      'Create a batch job from a CSV (multipart: type, file, webhook_url, column, header, fields); 1 credit per row',
    form: batchCreateForm,
    ok: batchJobSchema,
    okStatus: 202,
    okDescription: 'The queued job (or, for a repeated Idempotency-Key, the job it created)',
    okHeaders: {
      'Idempotent-Replayed': {
        description: 'true when an Idempotency-Key replayed an earlier job (docs/batch.md)',
        schema: { type: 'string', enum: ['true'] },
      },
    },
    errors: [400, 401, 402, 413, 422, 429],
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1 to 255 printable ASCII characters: the same key with the same request returns the job it created instead of a new one',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
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
    operationId: 'getBatch',
    summary: 'A batch job; result_url is freshly signed once done',
    ok: batchJobSchema,
    okDescription: 'The job',
    errors: [401, 404, 429],
  })
  @ApiParam(JOB_ID)
  async get(
    principal: Principal,
    _body: undefined,
    request: FastifyRequest<{ Params: { jobId: string } }>,
  ): Promise<BatchJob> {
    // An ApiCall route: polled by every client waiting on a job, so it takes the one-pass path.
    const { jobId } = request.params;
    const job = isJobId(jobId)
      ? await this.repository.findForAccount(principal.accountId, principal.mode, jobId)
      : null;
    if (!job) throw new VerityError('not_found', `batch job ${jobId} not found`);
    return this.jobs.view(job, localBaseUrl(request));
  }

  @Delete(':jobId')
  @NoStore()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @ApiDoc({
    operationId: 'cancelBatch',
    summary:
      'Cancel a queued or processing job: failed with error.code cancelled, unprocessed rows refunded (the message states how many), the scored rows at partial_result_url (added in v1)',
    ok: batchJobSchema,
    okDescription:
      'The cancelled job; a repeated DELETE answers the same (docs/batch.md, "Cancelling a job")',
    errors: [401, 404, 422, 429],
  })
  @ApiParam(JOB_ID)
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('jobId') jobId: string,
    @Req() request: FastifyRequest,
  ): Promise<BatchJob> {
    if (!isJobId(jobId)) throw new VerityError('not_found', `batch job ${jobId} not found`);
    const job = await this.lifecycle.cancel(principal.accountId, principal.mode, jobId);
    return this.jobs.view(job, localBaseUrl(request));
  }

  @Get(':jobId/download')
  @ApiDoc({
    operationId: 'downloadBatchResult',
    summary:
      'Download a result CSV (authenticated by the sig of result_url or partial_result_url, no API key)',
    ok: 'text/csv',
    okDescription:
      "The result file: a header row, then one row per input row (docs/batch.md); for a failed job's partial_result_url, one row per scored row, in input order",
    okHeaders: {
      'Content-Disposition': {
        description:
          "attachment; filename=\"<stem>-results.csv\"; filename*=UTF-8''<stem>-results.csv (a partial file: <stem>-partial.csv; with only=, the verdicts follow: <stem>-results-deliverable-risky.csv): the uploaded file's name without its extension (<jobId> for a job uploaded without one), percent-encoded in filename*",
        schema: { type: 'string' },
      },
    },
    errors: [400, 403, 404, 410],
    auth: 'none',
  })
  @ApiParam(JOB_ID)
  @ApiQuery({
    name: 'sig',
    required: true,
    description:
      'The signature result_url (or partial_result_url) carries (about an hour); 403 once expired',
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'only',
    required: false,
    description:
      "Added in v1: keep only the rows of these verdicts, comma-separated (e.g. deliverable,risky; BatchJobSummary names them per type), in file order after the header. Not part of the signature: it narrows what the signed link grants. A verdict the job's type does not have is 400",
    schema: { type: 'string' },
  })
  async download(
    @Param('jobId') jobId: string,
    @Query('sig') sig: string | undefined,
    @Query('only') only: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.downloads.open(jobId, typeof sig === 'string' ? sig : undefined, only);
    const whole = resultFileName(file.fileName, file.jobId, file.partial);
    const name = file.only ? whole.replace(/\.csv$/, `-${file.only.join('-')}.csv`) : whole;
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', attachment(name))
      .header('Cache-Control', 'private, no-store')
      .send(file.body);
  }
}
