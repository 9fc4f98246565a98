// The account's own history for the fraud score: velocity, reported outcomes and what they
// taught (docs/history.md). The store port and its adapters, the call log, feedback and stats.
export * from './store/history-store.port';
export { MemoryHistoryStore, type MemoryHistoryLimits } from './store/memory.history-store';
export { RedisHistoryStore } from './store/redis.history-store';
export { HistoryModule } from './history.module';
export { VerifyHistory, historyView, type ObservedCall } from './verify-history.service';
export { FeedbackService } from './feedback/feedback.service';
export { FeedbackStatsService } from './stats/feedback-stats.service';
export { MIN_LABELS_PER_OUTCOME, aucOf } from './stats/feedback-stats';
export type { CallInputs, HistoryScope } from './values/value-keys';
