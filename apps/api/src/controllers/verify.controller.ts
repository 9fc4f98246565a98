import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  CREDIT_COST,
  verifyRequest,
  verifyResultSchema,
  type VerifyRequest,
} from '@verity/contracts';
import { VerifyHistory } from '@verity/history';
import { ENGINES, TEST_ENGINES, type Engines } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { BillingService } from '../billing/billing.service';
import { ApiDoc, ApiExplain } from '../openapi/api-docs.decorators';
import { runVerify, type VerifyAnswer } from './verify.work';

@ApiTags('verify')
@Controller('v1')
export class VerifyController {
  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    @Inject(TEST_ENGINES) private readonly test: Engines,
    private readonly billing: BillingService,
    private readonly history: VerifyHistory,
  ) {}

  @Post('verify')
  @HttpCode(200)
  @ApiCall({ body: verifyRequest, ok: verifyResultSchema })
  @ApiDoc({
    operationId: 'verify',
    summary: `Combined fraud check of email, phone and/or IP (${CREDIT_COST.verify} credits)`,
    body: verifyRequest,
    ok: verifyResultSchema,
    okDescription:
      'The VerifyResult with its request_id (for POST /v1/feedback); with explain=true also `fraud_base`, `reasons` and `history`',
    errors: [400, 401, 402, 422, 429, 503],
  })
  @ApiExplain(
    'true adds `fraud_base`, `reasons` (each contribution to fraud_score) and `history` (the counts behind the history rules)',
  )
  verify(
    principal: Principal,
    body: VerifyRequest,
    request: FastifyRequest<{ Querystring: { explain?: string } }>,
  ): Promise<VerifyAnswer> {
    const explain = request.query.explain;
    return this.billing.charge(principal, 'verify', request.id, () =>
      runVerify(
        principal.mode === 'test' ? this.test : this.engines,
        this.history,
        principal,
        body,
        explain === 'true',
      ),
    );
  }
}
