export { AccountsModule } from './accounts.module';
export { AccountsService, type CreatedAccount } from './accounts.service';
export { ApiKeysService, type ApiKeyView, type IssuedApiKey } from './api-keys.service';
export { CreditsService, type UsageAttribution } from './credits.service';
export { CreditLeases, type LeaseHold } from './leases/credit-leases.service';
export { reserveLease, settleLease } from './leases/lease.sql';
export type { Principal } from './principal';
export { applyLedgerMovements, CONSOLE_KEY_ID, type LedgerMovement } from './ledger.sql';
export { KeyActivityRecorder } from './key-activity.recorder';
export { UsageService, type UsageDay } from './usage.service';
export {
  ConsoleUsersService,
  MIN_PASSWORD_LENGTH,
  normaliseEmail,
  tokenHash,
  type ConsoleUser,
  type SignInLink,
} from './console/console-users.service';
export { LedgerReader } from './ledger.reader';
