import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';

export { AccountEntity, ApiKeyEntity, LedgerEntryEntity };
export const ENTITIES = [AccountEntity, ApiKeyEntity, LedgerEntryEntity];
