import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';
import { CreditsService } from './credits.service';
import { KeyRevocationListener } from './key-revocation.listener';

/** Accounts, keys and credits. Needs a DataSource and APP_CONFIG from the host module. */
@Module({
  providers: [AccountsService, ApiKeysService, CreditsService, KeyRevocationListener],
  exports: [AccountsService, ApiKeysService, CreditsService],
})
export class AccountsModule {}
