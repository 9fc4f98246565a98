import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimitBucketRepository } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig, CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { LOGGER } from '@verity/platform';
import { createSharedRateLimitStore } from '../rate-limit/rate-limit.factory';
import type { RateLimitStore } from '../rate-limit/rate-limit.store';

/**
 * Webhook sends asked from the console (test events, resends) per account:
 * CONSOLE_TEST_EVENTS_PER_MINUTE, shared by every API instance, so a script cannot push the
 * account's real deliveries out of the delivery log (the latest 100) or hammer a receiver.
 */
@Injectable()
export class ConsoleSendLimit implements OnApplicationShutdown {
  private readonly store: RateLimitStore;

  constructor(
    buckets: RateLimitBucketRepository,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
    @Inject(CORE_CONFIG) core: CoreConfig,
    @Optional() @Inject(LOGGER) logger: Logger | null = null,
  ) {
    const burst = config.CONSOLE_TEST_EVENTS_PER_MINUTE;
    this.store = createSharedRateLimitStore(
      core,
      buckets,
      { ratePerSecond: burst / 60, burst },
      'verity:console-sends:',
      logger,
    );
  }

  /** Takes one send of the account's budget, or throws 429 with Retry-After. */
  async take(accountId: string): Promise<void> {
    const decision = await this.store.take(accountId);
    if (decision.allowed) return;
    const retry = String(decision.retryAfterSeconds);
    throw new VerityError(
      'rate_limited',
      `at most ${this.config.CONSOLE_TEST_EVENTS_PER_MINUTE} test events and resends a minute; try again in ${retry} seconds`,
      { 'Retry-After': retry },
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}
