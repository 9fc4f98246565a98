import { AccountsKeysLedger1732262400000 } from './1732262400000-accounts-keys-ledger';

/** Every migration, oldest first. Applied at boot; `synchronize` is never used. */
export const MIGRATIONS = [AccountsKeysLedger1732262400000];
