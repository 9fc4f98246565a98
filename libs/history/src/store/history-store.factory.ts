import type { Logger } from 'pino';
import type { CoreConfig, HistoryConfig } from '@verity/config';
import type { HistoryStore, HistoryStorePolicy } from './history-store.port';
import { MemoryHistoryStore } from './memory.history-store';
import { RedisHistoryStore } from './redis.history-store';

/** Recent calls the in-process store holds (two minutes at over 800 calls a second). */
const MEMORY_RECENT_CALLS = 100_000;

/** The history in Redis when REDIS_URL is set (shared by every API instance), else in memory. */
export function createHistoryStore(
  config: Pick<CoreConfig, 'REDIS_URL'> & Pick<HistoryConfig, 'HISTORY_MEMORY_MAX_ENTRIES'>,
  policy: HistoryStorePolicy,
  logger: Logger | null,
): HistoryStore {
  return config.REDIS_URL
    ? new RedisHistoryStore(config.REDIS_URL, policy, 'verity:history:', (err) =>
        logger?.warn({ err }, 'history store: Redis error'),
      )
    : new MemoryHistoryStore(policy, {
        maxEntries: config.HISTORY_MEMORY_MAX_ENTRIES,
        maxRecentCalls: MEMORY_RECENT_CALLS,
      });
}
