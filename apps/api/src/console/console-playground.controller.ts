import { Body, Controller, HttpCode, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  emailValidateRequest,
  ipIntelRequest,
  phoneValidateRequest,
  verifyRequest,
  type EmailValidateRequest,
  type IpIntelRequest,
  type PhoneValidateRequest,
  type VerifyRequest,
} from '@verity/contracts';
import { VerifyHistory } from '@verity/history';
import { ENGINES, type Engines } from '@verity/platform';
import { BillingService } from '../billing/billing.service';
import { runVerify } from '../controllers/verify.work';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';

/**
 * One call from the browser, through the same engines, request schemas and BillingService as
 * /v1 (charged and counted in usage on the console's key), answering the API's JSON.
 */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsolePlaygroundController {
  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    private readonly billing: BillingService,
    private readonly history: VerifyHistory,
  ) {}

  @ConsoleRoute('playgroundEmail')
  @HttpCode(200)
  validateEmail(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(emailValidateRequest)) body: EmailValidateRequest,
  ) {
    return this.billing.charge(request.principal!, 'email_validate', request.id, () =>
      this.engines.email.validate(body.email),
    );
  }

  @ConsoleRoute('playgroundPhone')
  @HttpCode(200)
  validatePhone(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(phoneValidateRequest)) body: PhoneValidateRequest,
  ) {
    const hlr = body.hlr === true;
    return this.billing.charge(
      request.principal!,
      hlr ? 'phone_validate_hlr' : 'phone_validate',
      request.id,
      () =>
        this.engines.phone.validate({
          phone: body.phone,
          country_hint: body.country_hint?.toUpperCase(),
          hlr,
        }),
    );
  }

  @ConsoleRoute('playgroundIp')
  @HttpCode(200)
  intel(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(ipIntelRequest)) body: IpIntelRequest,
  ) {
    return this.billing.charge(request.principal!, 'ip_intel', request.id, () =>
      this.engines.ip.lookup(body.ip.trim()),
    );
  }

  @ConsoleRoute('playgroundVerify')
  @HttpCode(200)
  verify(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(verifyRequest)) body: VerifyRequest,
    @Query('explain') explain: string | undefined,
  ) {
    return this.billing.charge(request.principal!, 'verify', request.id, () =>
      runVerify(this.engines, this.history, request.principal!, body, explain === 'true'),
    );
  }
}
