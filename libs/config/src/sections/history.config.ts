import { z } from 'zod';
import { envInt } from '../env-types';

/** The account's history behind the fraud score: velocity and reported outcomes (docs/history.md). */
export const historySchema = z.object({
  /**
   * Key of the HMAC the history stores values under. Unset: one is generated on first use and
   * kept in the database, so every instance and a restart agree. Changing it starts every
   * account's history afresh.
   */
  HISTORY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Days verify calls, reports and report weights are kept; then they are deleted. */
  HISTORY_RETENTION_DAYS: envInt(90),
  /** A report weighs half as much after this many days. */
  HISTORY_HALF_LIFE_DAYS: envInt(30),
  /** Values plus members the in-process store holds (without REDIS_URL); older ones leave first. */
  HISTORY_MEMORY_MAX_ENTRIES: envInt(1_000_000, 1_000),
});

/** The history section of the validated config (inject it with HISTORY_CONFIG). */
export type HistoryConfig = z.infer<typeof historySchema>;
