import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AccountsService,
  ConsoleUsersService,
  CreditLeases,
  type CreatedAccount,
} from '@verity/accounts';
import {
  adminAddCreditsRequest,
  adminCreateAccountRequest,
  accountCreditsSchema,
  createdAccountSchema,
  type AdminAddCreditsRequest,
  type AdminCreateAccountRequest,
} from '@verity/contracts';
import { AdminGuard } from '../auth/admin.guard';
import { uuidParam } from '../http/uuid-param';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { NoStore } from '../http/no-store';

/** Operator API, enabled by ADMIN_TOKEN (`Authorization: Bearer <token>`). */
@ApiTags('admin')
@Controller('admin/accounts')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly users: ConsoleUsersService,
    private readonly credits: CreditLeases,
  ) {}

  @Post()
  @NoStore()
  @HttpCode(201)
  @ApiDoc({
    operationId: 'createAccount',
    summary: 'Create an account with credits and a first key',
    body: adminCreateAccountRequest,
    ok: createdAccountSchema,
    okStatus: 201,
    okDescription: 'The account and its first key (shown only here)',
    errors: [400, 401, 404, 422],
    auth: 'admin',
  })
  async create(
    @Body(new ZodBodyPipe(adminCreateAccountRequest)) body: AdminCreateAccountRequest,
  ): Promise<CreatedAccount & { sign_in_url?: string }> {
    const ownerEmail = body.owner_email;
    if (!ownerEmail) return this.accounts.create(body.name, body.credits);
    // One transaction: an owner_email that cannot be used (another account's) leaves no account.
    const [created, link] = await this.accounts.createWith(body.name, body.credits, (manager, id) =>
      this.users.createWithLink(id, ownerEmail, manager),
    );
    return { ...created, sign_in_url: link.url };
  }

  @Post(':id/credits')
  @HttpCode(200)
  @ApiDoc({
    operationId: 'addCredits',
    summary:
      'Add credits to an account; returns the balance its keys now see (GET /v1/ping credits_remaining)',
    body: adminAddCreditsRequest,
    ok: accountCreditsSchema,
    okDescription: 'The account’s balance after the top-up',
    errors: [400, 401, 404],
    auth: 'admin',
  })
  async addCredits(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(adminAddCreditsRequest)) body: AdminAddCreditsRequest,
  ): Promise<{ account_id: string; credits_balance: number }> {
    const accountId = uuidParam(id, 'account');
    await this.accounts.addCredits(accountId, body.amount, 'admin');
    // The balance a client sees, as ping shows it: credits reserved by API instances' leases
    // are still the account's (docs/credits.md), so the unreserved column alone would be short.
    return { account_id: id, credits_balance: await this.credits.balance(accountId) };
  }
}
