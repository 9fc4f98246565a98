import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { SettingsRepository } from '@verity/batch';
import { CORE_CONFIG, type CoreConfig, HISTORY_CONFIG, type HistoryConfig } from '@verity/config';
import { LOGGER } from '@verity/platform';
import { CallLog } from './calls/call-log';
import { VerifyCallRepository } from './db/verify-call.repository';
import { VerifyFeedbackRepository } from './db/verify-feedback.repository';
import { FeedbackService } from './feedback/feedback.service';
import { historyPolicy } from './history-policy';
import { HistoryUpkeep } from './history-upkeep';
import { HISTORY_POLICY, HISTORY_STORE } from './history.tokens';
import type { HistoryStorePolicy } from './store/history-store.port';
import { FeedbackStatsService } from './stats/feedback-stats.service';
import { createHistoryStore } from './store/history-store.factory';
import { historySecret } from './values/history-secret';
import { ValueKeys } from './values/value-keys';
import { VerifyHistory } from './verify-history.service';

/**
 * The account's history behind the fraud score (docs/history.md). Needs a DataSource and
 * the config (CORE_CONFIG, HISTORY_CONFIG) from the host module; LOGGER when it has one.
 */
@Module({
  providers: [
    { provide: HISTORY_POLICY, useFactory: historyPolicy, inject: [HISTORY_CONFIG] },
    {
      provide: HISTORY_STORE,
      useFactory: (
        core: CoreConfig,
        history: HistoryConfig,
        policy: HistoryStorePolicy,
        logger: Logger | null,
      ) => createHistoryStore({ ...core, ...history }, policy, logger),
      inject: [CORE_CONFIG, HISTORY_CONFIG, HISTORY_POLICY, { token: LOGGER, optional: true }],
    },
    SettingsRepository,
    {
      provide: ValueKeys,
      useFactory: async (config: HistoryConfig, settings: SettingsRepository) =>
        new ValueKeys(await historySecret(config, settings)),
      inject: [HISTORY_CONFIG, SettingsRepository],
    },
    VerifyCallRepository,
    VerifyFeedbackRepository,
    {
      provide: CallLog,
      useFactory: (calls: VerifyCallRepository, logger: Logger | null) =>
        new CallLog(calls, logger),
      inject: [VerifyCallRepository, { token: LOGGER, optional: true }],
    },
    VerifyHistory,
    FeedbackService,
    FeedbackStatsService,
    HistoryUpkeep,
  ],
  exports: [VerifyHistory, FeedbackService, FeedbackStatsService],
})
export class HistoryModule {}
