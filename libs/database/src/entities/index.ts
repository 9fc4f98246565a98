import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { BatchJobEntity } from './batch-job.entity';
import { BatchChunkEntity } from './batch-chunk.entity';
import { BatchChunkProgressEntity } from './batch-chunk-progress.entity';
import { SettingEntity } from './setting.entity';
import { VerifyCallEntity } from './verify-call.entity';
import { VerifyFeedbackEntity } from './verify-feedback.entity';

export {
  AccountEntity,
  ApiKeyEntity,
  LedgerEntryEntity,
  BatchJobEntity,
  BatchChunkEntity,
  BatchChunkProgressEntity,
  SettingEntity,
  VerifyCallEntity,
  VerifyFeedbackEntity,
};
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  LedgerEntryEntity,
  BatchJobEntity,
  BatchChunkEntity,
  BatchChunkProgressEntity,
  SettingEntity,
  VerifyCallEntity,
  VerifyFeedbackEntity,
];
