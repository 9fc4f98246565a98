import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Principal } from '@verity/accounts';
import {
  feedbackRequest,
  feedbackResultSchema,
  feedbackStatsSchema,
  type FeedbackRequestBody,
  type FeedbackResult,
  type FeedbackStats,
} from '@verity/contracts';
import { FeedbackService, FeedbackStatsService } from '@verity/history';
import { ENGINES, TEST_ENGINES, type Engines } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { reportFeedback } from './feedback.work';

/** How verify calls turned out, and what that says about the scores (docs/history.md). */
@ApiTags('verify')
@Controller('v1/feedback')
export class FeedbackController {
  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    @Inject(TEST_ENGINES) private readonly test: Engines,
    private readonly feedback: FeedbackService,
    private readonly stats: FeedbackStatsService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiCall({ body: feedbackRequest, ok: feedbackResultSchema })
  @ApiDoc({
    operationId: 'reportFeedback',
    summary:
      'Report how a verify call turned out (fraud or legitimate), by request_id or by email, phone and IP (free)',
    body: feedbackRequest,
    ok: feedbackResultSchema,
    okDescription: 'The outcome and the values whose later scores it moves',
    errors: [400, 401, 404, 429, 503],
  })
  report(principal: Principal, body: FeedbackRequestBody): Promise<FeedbackResult> {
    const engines = principal.mode === 'test' ? this.test : this.engines;
    return reportFeedback(this.feedback, engines, principal, body);
  }

  @Get('stats')
  @ApiCall({ ok: feedbackStatsSchema })
  @ApiDoc({
    operationId: 'feedbackStats',
    summary:
      "What the reported outcomes say about the account's fraud scores: AUC, reliability, precision per reason (free)",
    ok: feedbackStatsSchema,
    okDescription: 'Statistics of the labelled verify calls of the key mode',
    errors: [401, 429, 503],
  })
  statistics(principal: Principal): Promise<FeedbackStats> {
    return this.stats.stats(principal);
  }
}
