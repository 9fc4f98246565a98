import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  phoneResultSchema,
  phoneValidateRequest,
  type PhoneResult,
  type PhoneValidateRequest,
} from '@verity/contracts';
import { PHONE_ENGINE, TEST_ENGINES, type Engines, type PhoneEnginePort } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { BillingService } from '../billing/billing.service';
import { ApiDoc } from '../openapi/api-docs.decorators';

@ApiTags('phone')
@Controller('v1/phone')
export class PhoneController {
  constructor(
    @Inject(PHONE_ENGINE) private readonly engine: PhoneEnginePort,
    @Inject(TEST_ENGINES) private readonly test: Engines,
    private readonly billing: BillingService,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @ApiCall({ body: phoneValidateRequest, ok: phoneResultSchema })
  @ApiDoc({
    operationId: 'validatePhone',
    summary: 'Validate a phone number (1 credit; 5 with hlr: true)',
    body: phoneValidateRequest,
    ok: phoneResultSchema,
    okDescription: 'The PhoneResult; hlr is null unless hlr: true was sent',
    errors: [400, 401, 402, 429, 503],
  })
  validate(
    principal: Principal,
    body: PhoneValidateRequest,
    request: FastifyRequest,
  ): Promise<PhoneResult> {
    const operation = body.hlr === true ? 'phone_validate_hlr' : 'phone_validate';
    const engine = principal.mode === 'test' ? this.test.phone : this.engine;
    return this.billing.charge(principal, operation, request.id, () =>
      engine.validate({
        phone: body.phone,
        country_hint: body.country_hint?.toUpperCase(),
        hlr: body.hlr === true,
      }),
    );
  }
}
