import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  emailResultSchema,
  emailValidateRequest,
  type EmailResult,
  type EmailValidateRequest,
  type MailboxEvidence,
} from '@verity/contracts';
import { EMAIL_ENGINE, TEST_ENGINES, type EmailEnginePort, type Engines } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { BillingService } from '../billing/billing.service';
import { ApiDoc, ApiExplain } from '../openapi/api-docs.decorators';

@ApiTags('email')
@Controller('v1/email')
export class EmailController {
  constructor(
    @Inject(EMAIL_ENGINE) private readonly engine: EmailEnginePort,
    @Inject(TEST_ENGINES) private readonly test: Engines,
    private readonly billing: BillingService,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @ApiCall({ body: emailValidateRequest, ok: emailResultSchema })
  @ApiDoc({
    operationId: 'validateEmail',
    summary: 'Validate an email address (1 credit)',
    body: emailValidateRequest,
    ok: emailResultSchema,
    okDescription: 'The EmailResult; with explain=true also `mailbox`',
    errors: [400, 401, 402, 429],
  })
  @ApiExplain(
    'true adds `mailbox`: what the SMTP probe asked the mail server and its answer, or why the mailbox was not checked',
  )
  validate(
    principal: Principal,
    body: EmailValidateRequest,
    request: FastifyRequest<{ Querystring: { explain?: string } }>,
  ): Promise<EmailResult | (EmailResult & { mailbox: MailboxEvidence })> {
    const explain = request.query.explain === 'true';
    const engine = principal.mode === 'test' ? this.test.email : this.engine;
    return this.billing.charge(principal, 'email_validate', request.id, () =>
      explain ? engine.explain(body.email) : engine.validate(body.email),
    );
  }
}
