import { setTimeout as sleep } from 'node:timers/promises';
import { jitteredBackoffMs } from './backoff';

/**
 * SQLSTATEs of a transaction PostgreSQL aborted because of another one, not because of what
 * it says: 40P01 deadlock_detected and 40001 serialization_failure. The transaction was rolled
 * back whole, so running it again is safe and is what PostgreSQL's documentation asks for.
 * https://www.postgresql.org/docs/current/mvcc-serialization-failure-handling.html
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/** Whether `error` (or TypeORM's `driverError` inside it) is such an abort. */
export function isTransactionConflict(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 3; depth++) {
    if (typeof e !== 'object' || e === null) return false;
    const { code, driverError } = e as { code?: unknown; driverError?: unknown };
    if (typeof code === 'string' && CONFLICT_STATES.has(code)) return true;
    e = driverError;
  }
  return false;
}

/**
 * Runs `transaction` and runs it again, after a short jittered wait, while PostgreSQL aborts
 * it for a conflict with another transaction; at most `attempts` runs in all, then the last
 * error is thrown. Any other error is thrown at once.
 */
export async function retryOnTransactionConflict<T>(
  transaction: () => Promise<T>,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await sleep(jitteredBackoffMs(attempt, 20, 200));
    }
  }
}
