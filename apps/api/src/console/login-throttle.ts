import { createHash } from 'node:crypto';
import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimitBucketRepository } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig, CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { LOGGER } from '@verity/platform';
import { FailedAuthBudget } from '../auth/failed-auth.budget';
import { addressSubject } from '../http/client-address';
import { createSharedRateLimitStore } from '../rate-limit/rate-limit.factory';
import type { RateLimitDecision, RateLimitStore } from '../rate-limit/rate-limit.store';

/**
 * The sign-in limits (docs/console.md, "Throttling"), failure budgets that refill over
 * CONSOLE_LOGIN_WINDOW_SECONDS, shared by every API instance (Redis, else PostgreSQL):
 * - an attempt from a browser without a device cookie for the email (untrusted) spends its
 *   client address's budget (CONSOLE_LOGIN_MAX_FAILURES_PER_IP; IPv6 by /64) and the email's
 *   (CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL, whatever the address), so guessing one account's
 *   password is capped however many addresses guess;
 * - an attempt from a trusted browser spends only that device's own budget (the same size),
 *   so strangers spending the email's budget never lock the real user out.
 * A spent budget answers 429 with Retry-After before the password is checked, the same for
 * unknown emails. Only a wrong password spends; a right one, or a check that could not run,
 * gives its reservation back (FailedAuthBudget).
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly addressStore: RateLimitStore;
  private readonly accountStore: RateLimitStore;
  private readonly addresses: FailedAuthBudget;
  private readonly accounts: FailedAuthBudget;

  constructor(
    buckets: RateLimitBucketRepository,
    @Inject(CONSOLE_CONFIG) config: ConsoleConfig,
    @Inject(CORE_CONFIG) core: CoreConfig,
    @Optional() @Inject(LOGGER) logger: Logger | null = null,
  ) {
    const window = config.CONSOLE_LOGIN_WINDOW_SECONDS;
    const policy = (burst: number) => ({ ratePerSecond: burst / window, burst });
    this.addressStore = createSharedRateLimitStore(
      core,
      buckets,
      policy(config.CONSOLE_LOGIN_MAX_FAILURES_PER_IP),
      'verity:login-address:',
      logger,
    );
    this.accountStore = createSharedRateLimitStore(
      core,
      buckets,
      policy(config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL),
      'verity:login-account:',
      logger,
    );
    this.addresses = new FailedAuthBudget(this.addressStore, refused);
    this.accounts = new FailedAuthBudget(this.accountStore, refused);
  }

  /**
   * Runs `check` (the password check: a user, or null for wrong credentials) under the limits
   * of `email` from `address`, trusted when `device` (a device cookie's id) is given.
   */
  async attempt<T>(
    email: string,
    address: string,
    device: string | null,
    check: () => Promise<T | null>,
  ): Promise<T | null> {
    const budgets: [FailedAuthBudget, string][] = device
      ? [[this.accounts, `device:${device}`]]
      : [
          [this.addresses, addressSubject(address)],
          [this.accounts, `email:${emailSubject(email)}`],
        ];
    const held: [FailedAuthBudget, string][] = [];
    let failed = false;
    try {
      for (const entry of budgets) {
        await entry[0].reserve(entry[1]);
        held.push(entry);
      }
      const result = await check();
      failed = result === null;
      return result;
    } finally {
      await Promise.all(held.map(([budget, subject]) => budget.release(subject, failed)));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.addressStore.close();
    await this.accountStore.close();
  }
}

/** The same answer whichever budget is spent, and for unknown emails. */
function refused(decision: RateLimitDecision): VerityError {
  const retry = decision.retryAfterSeconds;
  return new VerityError(
    'rate_limited',
    `Too many failed sign-ins; try again in ${retry} seconds`,
    {
      'Retry-After': String(retry),
    },
  );
}

/** Emails are kept out of the stores: a budget is named by the email's SHA-256. */
function emailSubject(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}
