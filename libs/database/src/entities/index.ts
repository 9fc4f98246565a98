import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { BatchJobEntity } from './batch-job.entity';
import { BatchChunkEntity } from './batch-chunk.entity';
import { BatchChunkProgressEntity } from './batch-chunk-progress.entity';
import { SettingEntity } from './setting.entity';

export {
  AccountEntity,
  ApiKeyEntity,
  LedgerEntryEntity,
  BatchJobEntity,
  BatchChunkEntity,
  BatchChunkProgressEntity,
  SettingEntity,
};
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  LedgerEntryEntity,
  BatchJobEntity,
  BatchChunkEntity,
  BatchChunkProgressEntity,
  SettingEntity,
];
