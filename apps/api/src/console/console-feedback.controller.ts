import { Body, Controller, HttpCode, Inject, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  feedbackRequest,
  type FeedbackRequestBody,
  type FeedbackResult,
  type FeedbackStats,
} from '@verity/contracts';
import { FeedbackService, FeedbackStatsService } from '@verity/history';
import { ENGINES, type Engines } from '@verity/platform';
import { reportFeedback } from '../controllers/feedback.work';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';

/** The Outcomes page: report an outcome and read what the live outcomes say (docs/console.md). */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsoleFeedbackController {
  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    private readonly feedback: FeedbackService,
    private readonly statistics: FeedbackStatsService,
  ) {}

  @ConsoleRoute('reportOutcome')
  @HttpCode(200)
  report(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(feedbackRequest)) body: FeedbackRequestBody,
  ): Promise<FeedbackResult> {
    return reportFeedback(this.feedback, this.engines, request.principal!, body);
  }

  @ConsoleRoute('outcomeStats')
  stats(@Req() request: FastifyRequest): Promise<FeedbackStats> {
    return this.statistics.stats(request.principal!);
  }
}
