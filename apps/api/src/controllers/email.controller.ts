import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  emailResultSchema,
  emailValidateRequest,
  type EmailResult,
  type EmailValidateRequest,
} from '@verity/contracts';
import { EMAIL_ENGINE, type EmailEnginePort } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { BillingService } from '../billing/billing.service';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ApiDoc } from '../openapi/api-docs.decorators';

@ApiTags('email')
@Controller('v1/email')
export class EmailController {
  constructor(
    @Inject(EMAIL_ENGINE) private readonly engine: EmailEnginePort,
    private readonly billing: BillingService,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @ApiCall(emailResultSchema)
  @ApiDoc({
    summary: 'Validate an email address (1 credit)',
    body: emailValidateRequest,
    ok: emailResultSchema,
    errors: [400, 401, 402, 429],
  })
  validate(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodBodyPipe(emailValidateRequest)) body: EmailValidateRequest,
    @Req() request: FastifyRequest,
  ): Promise<EmailResult> {
    return this.billing.charge(principal, 'email_validate', request.id, () =>
      this.engine.validate(body.email),
    );
  }
}
