import { BATCH_STATUSES, type BatchStatus } from '@verity/contracts';
import { fromStatuses } from './job-states';

/**
 * SQL: the job row's status is one of `statuses`, e.g. `j.status IN ('queued', 'processing')`.
 * Statements take the statuses from the state machine's sets (LIVE_STATUSES, RUNNING_STATUSES,
 * `fromStatuses(transition)`), never typed by hand, and get them spelled as literals so the
 * planner matches the partial indexes on status (batch_jobs_active_idx,
 * batch_jobs_recovery_idx). Only known statuses reach the text.
 */
export function statusIn(statuses: readonly BatchStatus[], alias?: string): string {
  const column = alias === undefined ? 'status' : `${alias}.status`;
  for (const status of statuses) {
    if (!BATCH_STATUSES.includes(status)) throw new Error(`not a job status: ${String(status)}`);
  }
  if (statuses.length === 0) return 'false';
  if (statuses.length === 1) return `${column} = '${statuses[0]}'`;
  return `${column} IN (${statuses.map((s) => `'${s}'`).join(', ')})`;
}

/**
 * SQL: the job may finish now: in a status `finish` leaves from, with every chunk recorded.
 * What claiming the assembly and the move to done both require.
 */
export const READY_TO_FINISH = `${statusIn(fromStatuses('finish'))} AND chunk_count IS NOT NULL AND chunks_done = chunk_count`;
