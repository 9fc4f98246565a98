import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { SettingsRepository } from '@verity/batch';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { LOGGER } from '@verity/platform';
import { CallLog } from './calls/call-log';
import { VerifyCallRepository } from './db/verify-call.repository';
import { VerifyFeedbackRepository } from './db/verify-feedback.repository';
import { FeedbackService } from './feedback/feedback.service';
import { historyPolicy } from './history-policy';
import { HistoryUpkeep } from './history-upkeep';
import { HISTORY_POLICY, HISTORY_STORE } from './history.tokens';
import { FeedbackStatsService } from './stats/feedback-stats.service';
import { createHistoryStore } from './store/history-store.factory';
import { historySecret } from './values/history-secret';
import { ValueKeys } from './values/value-keys';
import { VerifyHistory } from './verify-history.service';

/**
 * The account's history behind the fraud score (docs/history.md). Needs a DataSource and
 * APP_CONFIG from the host module; LOGGER when it has one.
 */
@Module({
  providers: [
    { provide: HISTORY_POLICY, useFactory: historyPolicy, inject: [APP_CONFIG] },
    {
      provide: HISTORY_STORE,
      useFactory: createHistoryStore,
      inject: [APP_CONFIG, HISTORY_POLICY, { token: LOGGER, optional: true }],
    },
    SettingsRepository,
    {
      provide: ValueKeys,
      useFactory: async (config: AppConfig, settings: SettingsRepository) =>
        new ValueKeys(await historySecret(config, settings)),
      inject: [APP_CONFIG, SettingsRepository],
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
