export { AccountsModule } from './accounts.module';
export { AccountsService, type CreatedAccount } from './accounts.service';
export { ApiKeysService, type ApiKeyView, type IssuedApiKey } from './api-keys.service';
export { CreditsService } from './credits.service';
export type { Principal } from './principal';
export { applyLedgerMovements, type LedgerMovement } from './ledger.sql';
