import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CreditLeases, LedgerRepository, UsageRepository } from '@verity/accounts';
import type { LedgerPage } from '@verity/contracts/wire';
import { BatchJobRepository } from '@verity/batch';
import { VerityError } from '@verity/common';
import { CREDIT_COST, type ConsoleOverview, type ConsoleUsage } from '@verity/contracts';
import { uuidParam } from '../http/uuid-param';
import { ConsoleSessionGuard } from './console-session.guard';
import { consoleJob } from './console-job';

const USAGE_DAYS = 30;

function pageSize(raw: string | undefined): number {
  const n = raw === undefined ? 25 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new VerityError('validation_error', 'limit must be an integer from 1 to 100');
  return n;
}

/** Overview, usage and billing data of the signed-in account (every query takes its id). */
@ApiExcludeController()
@Controller('console/api')
@UseGuards(ConsoleSessionGuard)
export class ConsoleAccountController {
  constructor(
    private readonly credits: CreditLeases,
    private readonly usage: UsageRepository,
    private readonly ledger: LedgerRepository,
    private readonly jobs: BatchJobRepository,
  ) {}

  @Get('overview')
  async overview(@Req() request: FastifyRequest): Promise<ConsoleOverview> {
    const { accountId } = request.principal!;
    const [balance, jobs] = await Promise.all([
      this.credits.balance(accountId),
      this.jobs.listForAccount(accountId, 5),
    ]);
    return { account_id: accountId, credits_balance: balance, recent_jobs: jobs.map(consoleJob) };
  }

  @Get('usage')
  async dailyUsage(
    @Req() request: FastifyRequest,
    @Query('key_id') keyId: string | undefined,
  ): Promise<ConsoleUsage> {
    const key = keyId ? uuidParam(keyId, 'key') : null;
    await this.credits.settleNow(request.principal!.accountId);
    return {
      days: USAGE_DAYS,
      operations: Object.keys(CREDIT_COST),
      data: await this.usage.daily(request.principal!.accountId, USAGE_DAYS, key),
    };
  }

  @Get('ledger')
  async history(
    @Req() request: FastifyRequest,
    @Query('before') before: string | undefined,
    @Query('limit') limit: string | undefined,
  ): Promise<LedgerPage> {
    if (before !== undefined && !/^[0-9]{1,18}$/.test(before))
      throw new VerityError('validation_error', 'before must be a ledger entry id');
    const size = pageSize(limit);
    await this.credits.settleNow(request.principal!.accountId);
    return this.ledger.page(request.principal!.accountId, before ?? null, size);
  }
}
