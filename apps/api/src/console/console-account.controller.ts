import { Controller, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  CreditLeases,
  KeyActivityRecorder,
  LedgerRepository,
  UsageRepository,
} from '@verity/accounts';
import type { LedgerPage } from '@verity/contracts/wire';
import { BatchJobRepository } from '@verity/batch';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import {
  CREDIT_COST,
  type ConsoleOverview,
  type ConsoleStatement,
  type ConsoleUsage,
  type StatementGranularity,
} from '@verity/contracts';
import { uuidParam } from '../http/uuid-param';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';
import { consoleJob } from './console-job';

const USAGE_DAYS = 30;
const HOUR_MS = 3_600_000;
/** A statement page: 30 days grouped per day, or 24 hours grouped per hour. */
const STATEMENT_SPAN_MS: Record<StatementGranularity, number> = {
  day: 30 * 24 * HOUR_MS,
  hour: 24 * HOUR_MS,
};
/** Most top-ups and batch jobs one statement page lists. */
const STATEMENT_MAX_ENTRIES = 200;

/** The end (exclusive) of a statement page: `before`, or the end of the current UTC period. */
function statementEnd(granularity: StatementGranularity, before: string | undefined): Date {
  if (before !== undefined) {
    const end = new Date(before);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(before) || Number.isNaN(end.getTime()))
      throw new VerityError('validation_error', 'before must be an ISO 8601 time');
    return end;
  }
  const period = granularity === 'day' ? 24 * HOUR_MS : HOUR_MS;
  return new Date((Math.floor(Date.now() / period) + 1) * period);
}

function pageSize(raw: string | undefined): number {
  const n = raw === undefined ? 25 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new VerityError('validation_error', 'limit must be an integer from 1 to 100');
  return n;
}

/** Overview, usage and billing data of the signed-in account (every query takes its id). */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsoleAccountController {
  constructor(
    private readonly credits: CreditLeases,
    private readonly usage: UsageRepository,
    private readonly activity: KeyActivityRecorder,
    private readonly ledger: LedgerRepository,
    private readonly jobs: BatchJobRepository,
    @Inject(CORE_CONFIG) private readonly config: CoreConfig,
  ) {}

  @ConsoleRoute('overview')
  async overview(@Req() request: FastifyRequest): Promise<ConsoleOverview> {
    const { accountId, mode } = request.principal!;
    const [balance, jobs] = await Promise.all([
      this.credits.balance(accountId),
      this.jobs.listForAccount(accountId, mode, 5),
    ]);
    return {
      account_id: accountId,
      credits_balance: balance,
      recent_jobs: jobs.map(consoleJob),
      admin_api: this.config.ADMIN_TOKEN !== undefined,
    };
  }

  @ConsoleRoute('usage')
  async dailyUsage(
    @Req() request: FastifyRequest,
    @Query('key_id') keyId: string | undefined,
  ): Promise<ConsoleUsage> {
    const key = keyId ? uuidParam(keyId, 'key') : null;
    const { accountId } = request.principal!;
    await Promise.all([this.credits.settleNow(accountId), this.activity.flush()]);
    const [data, testCalls] = await Promise.all([
      this.usage.daily(accountId, USAGE_DAYS, key),
      this.usage.daily(accountId, USAGE_DAYS, key, 'test'),
    ]);
    return {
      days: USAGE_DAYS,
      operations: Object.keys(CREDIT_COST),
      data,
      test_calls: testCalls,
    };
  }

  /** What the account bought and spent: the Billing page's default view. */
  @ConsoleRoute('statement')
  async statement(
    @Req() request: FastifyRequest,
    @Query('granularity') granularity: string | undefined,
    @Query('before') before: string | undefined,
  ): Promise<ConsoleStatement> {
    const by = granularity ?? 'day';
    if (by !== 'day' && by !== 'hour')
      throw new VerityError('validation_error', 'granularity must be day or hour');
    const { accountId } = request.principal!;
    const to = statementEnd(by, before);
    const from = new Date(to.getTime() - STATEMENT_SPAN_MS[by]);
    await this.credits.settleNow(accountId);
    const [creditsAdded, calls, batchJobs, first] = await Promise.all([
      this.ledger.creditsAdded(accountId, from, to, STATEMENT_MAX_ENTRIES),
      this.usage.callsByKey(accountId, from, to, by),
      this.ledger.batchCharges(accountId, from, to, STATEMENT_MAX_ENTRIES),
      this.ledger.firstMovementAt(accountId),
    ]);
    return {
      granularity: by,
      from: from.toISOString(),
      to: to.toISOString(),
      credits_added: creditsAdded,
      calls,
      batch_jobs: batchJobs,
      next_before: first !== null && first < from ? from.toISOString() : null,
    };
  }

  /** The raw ledger with the credit-lease movements: an operator's detail (docs/credits.md). */
  @ConsoleRoute('ledger')
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
