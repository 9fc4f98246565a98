/** Nest token of the process's HistoryStore (memory, or Redis with REDIS_URL). */
export const HISTORY_STORE = Symbol.for('verity.history-store');
/** Nest token of the HistoryStorePolicy built from the configuration. */
export const HISTORY_POLICY = Symbol.for('verity.history-policy');
