import { Body, Controller, HttpCode, Inject, Post, Query, Req, UseGuards } from '@nestjs/common';
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
import { ConsoleSessionGuard } from './console-session.guard';

/**
 * One call from the browser, through the same engines, request schemas and BillingService as
 * /v1 (charged and counted in usage on the console's key), answering the API's JSON.
 */
@ApiExcludeController()
@Controller('console/api/playground')
@UseGuards(ConsoleSessionGuard)
export class ConsolePlaygroundController {
  constructor(
    @Inject(ENGINES) private readonly engines: Engines,
    private readonly billing: BillingService,
    private readonly history: VerifyHistory,
  ) {}

  @Post('email')
  @HttpCode(200)
  validateEmail(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(emailValidateRequest)) body: EmailValidateRequest,
  ) {
    return this.billing.charge(request.principal!, 'email_validate', request.id, () =>
      this.engines.email.validate(body.email),
    );
  }

  @Post('phone')
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

  @Post('ip')
  @HttpCode(200)
  intel(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(ipIntelRequest)) body: IpIntelRequest,
  ) {
    return this.billing.charge(request.principal!, 'ip_intel', request.id, () =>
      this.engines.ip.lookup(body.ip.trim()),
    );
  }

  @Post('verify')
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
