import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountsService, CreditLeases, type Principal } from '@verity/accounts';
import { pingResponseSchema } from '@verity/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@ApiTags('account')
@Controller('v1')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class PingController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly credits: CreditLeases,
  ) {}

  @Get('ping')
  @ApiDoc({
    summary: 'Check a key: its account, its name and the credits remaining (free)',
    ok: pingResponseSchema,
    errors: [401, 429],
  })
  async ping(@CurrentPrincipal() principal: Principal) {
    const [name, balance] = await Promise.all([
      this.accounts.name(principal.accountId),
      this.credits.balance(principal.accountId),
    ]);
    return {
      account: { id: principal.accountId, name },
      key: { id: principal.keyId, name: principal.keyName },
      credits_remaining: balance,
      credits_used: 0 as const,
    };
  }
}
