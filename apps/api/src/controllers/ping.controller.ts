import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountsService, CreditLeases, type Principal } from '@verity/accounts';
import { pingResponseSchema } from '@verity/contracts';
import { ApiCall } from '../auth/api-call.hook';
import { ApiDoc } from '../openapi/api-docs.decorators';

@ApiTags('account')
@Controller('v1')
export class PingController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly credits: CreditLeases,
  ) {}

  @Get('ping')
  @ApiCall({ ok: pingResponseSchema })
  @ApiDoc({
    operationId: 'ping',
    summary: 'Check a key: its account, its name and the credits remaining (free)',
    ok: pingResponseSchema,
    okDescription: 'The key, its account and the balance',
    errors: [401, 429],
  })
  async ping(principal: Principal) {
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
