import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  ipIntelRequest,
  ipResultSchema,
  type ExplainedIpFields,
  type IpIntelRequest,
  type IpResult,
} from '@verity/contracts';
import { IP_ENGINE, TEST_ENGINES, type Engines, type IpEnginePort } from '@verity/platform';
import { ApiCall } from '../auth/api-call.hook';
import { BillingService } from '../billing/billing.service';
import { ApiDoc, ApiExplain } from '../openapi/api-docs.decorators';

@ApiTags('ip')
@Controller('v1/ip')
export class IpController {
  constructor(
    @Inject(IP_ENGINE) private readonly engine: IpEnginePort,
    @Inject(TEST_ENGINES) private readonly test: Engines,
    private readonly billing: BillingService,
  ) {}

  @Post('intel')
  @HttpCode(200)
  @ApiCall({ body: ipIntelRequest, ok: ipResultSchema })
  @ApiDoc({
    operationId: 'getIpIntel',
    summary: 'IP intelligence: geo, ASN, VPN/proxy/Tor/datacenter, abuse score (1 credit)',
    body: ipIntelRequest,
    ok: ipResultSchema,
    okDescription: 'The IpResult; with explain=true also `lists`',
    errors: [400, 401, 402, 422, 429, 503],
  })
  @ApiExplain('true adds `lists`: each open-data list behind the flags, its state and age')
  intel(
    principal: Principal,
    body: IpIntelRequest,
    request: FastifyRequest<{ Querystring: { explain?: string } }>,
  ): Promise<IpResult | (IpResult & Pick<ExplainedIpFields, 'lists'>)> {
    const explain = request.query.explain === 'true';
    const engine = principal.mode === 'test' ? this.test.ip : this.engine;
    return this.billing.charge(principal, 'ip_intel', request.id, () =>
      explain ? engine.explain(body.ip.trim()) : engine.lookup(body.ip.trim()),
    );
  }
}
