import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';
import { ConsoleUsersService } from './console/console-users.service';
import { CreditsService } from './credits.service';
import { LedgerReader } from './ledger.reader';
import { KeyActivityRecorder } from './key-activity.recorder';
import { CreditLeases } from './leases/credit-leases.service';
import { NotificationListener } from './notification.listener';
import { UsageService } from './usage.service';

/** Accounts, keys and credits. Needs a DataSource and APP_CONFIG from the host module. */
@Module({
  providers: [
    AccountsService,
    ApiKeysService,
    CreditsService,
    CreditLeases,
    NotificationListener,
    KeyActivityRecorder,
    UsageService,
    ConsoleUsersService,
    LedgerReader,
  ],
  exports: [
    AccountsService,
    ApiKeysService,
    CreditsService,
    CreditLeases,
    KeyActivityRecorder,
    UsageService,
    ConsoleUsersService,
    LedgerReader,
  ],
})
export class AccountsModule {}
