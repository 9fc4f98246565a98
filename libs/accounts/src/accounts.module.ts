import { Module } from '@nestjs/common';
import { CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { AccountRepository } from './account.repository';
import { AccountsService } from './accounts.service';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';
import { ConsoleSessionRepository } from './console/console-session.repository';
import { ConsoleUserRepository } from './console/console-user.repository';
import { ConsoleUsersService } from './console/console-users.service';
import { PasswordHashPool } from './console/password.pool';
import { RateLimitBucketRepository } from './rate-limit-bucket.repository';
import { CreditsService } from './credits.service';
import { KeyActivityRecorder } from './key-activity.recorder';
import { CreditLeases } from './leases/credit-leases.service';
import { LeaseRepository } from './leases/lease.repository';
import { LedgerRepository } from './ledger.repository';
import { NotificationListener } from './notification.listener';
import { UsageRepository } from './usage.repository';

/**
 * Accounts, keys and credits. Needs a DataSource and the config (CORE_CONFIG, CONSOLE_CONFIG,
 * CREDITS_CONFIG) from the host module.
 */
@Module({
  providers: [
    AccountRepository,
    ApiKeyRepository,
    LedgerRepository,
    LeaseRepository,
    UsageRepository,
    ConsoleUserRepository,
    ConsoleSessionRepository,
    RateLimitBucketRepository,
    {
      provide: PasswordHashPool,
      useFactory: (config: ConsoleConfig) =>
        new PasswordHashPool(
          config.CONSOLE_PASSWORD_HASH_THREADS,
          config.CONSOLE_PASSWORD_HASH_QUEUE,
        ),
      inject: [CONSOLE_CONFIG],
    },
    AccountsService,
    ApiKeysService,
    CreditsService,
    CreditLeases,
    NotificationListener,
    KeyActivityRecorder,
    ConsoleUsersService,
  ],
  exports: [
    AccountsService,
    ApiKeysService,
    CreditsService,
    CreditLeases,
    KeyActivityRecorder,
    UsageRepository,
    LedgerRepository,
    ConsoleUsersService,
    ConsoleSessionRepository,
    RateLimitBucketRepository,
    PasswordHashPool,
  ],
})
export class AccountsModule {}
