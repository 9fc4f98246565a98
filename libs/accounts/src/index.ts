export { AccountsModule } from './accounts.module';
export { AccountsService, type AccountListing, type CreatedAccount } from './accounts.service';
export { ApiKeysService } from './api-keys.service';
export { keyReachOf, type KeyReach } from './key-reach';
export { CreditsService, type UsageAttribution } from './credits.service';
export { CreditLeases, type LeaseHold } from './leases/credit-leases.service';
export type { Principal } from './principal';
export {
  BATCH_DEBIT_REASON,
  BATCH_REFUND_REASON,
  CONSOLE_KEY_ID,
  LedgerRepository,
  type LedgerMovement,
} from './ledger.repository';
export { KeyActivityRecorder } from './key-activity.recorder';
export { UsageRepository } from './usage.repository';
export {
  ConsoleUsersService,
  MIN_PASSWORD_LENGTH,
  normaliseEmail,
  tokenHash,
  type ConsoleUser,
  type SignInLink,
} from './console/console-users.service';
export { ConsoleSessionRepository } from './console/console-session.repository';
export { RateLimitBucketRepository, type BucketTake } from './rate-limit-bucket.repository';
export { PasswordHashPool, type HashLane, type HashTicket } from './console/password.pool';
