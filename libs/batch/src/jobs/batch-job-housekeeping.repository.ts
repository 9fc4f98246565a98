import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, LessThan } from 'typeorm';
import { BatchJobEntity } from '@verity/database';
import type { UnfinishedJobStatus } from '@verity/observability';
import type { BatchJobRecord } from './batch-job.record';
import { INITIAL_STATUS, LIVE_STATUSES, RUNNING_STATUSES, type LiveStatus } from './job-states';
import { statusIn } from './job-status.sql';

/**
 * The batch_jobs reads and writes of ingest's background services, apart from the job
 * lifecycle (JobLifecycleRepository) and the assembly (BatchAssemblyRepository): retention
 * (expired jobs, purge marks), recovery (abandoned jobs) and the no-progress metric. None acts
 * for a tenant; each spans every account. None changes a status.
 */
@Injectable()
export class BatchJobHousekeeping {
  constructor(private readonly db: DataSource) {}

  private jobs() {
    return this.db.getRepository(BatchJobEntity);
  }

  /** Jobs that ended before `cutoff` whose stored files were not purged yet, oldest first. */
  findExpired(cutoff: Date, limit: number): Promise<BatchJobRecord[]> {
    return this.jobs().find({
      where: { finishedAt: LessThan(cutoff), storagePurgedAt: IsNull() },
      order: { finishedAt: 'ASC' },
      take: limit,
    });
  }

  /** Notes that the job's stored files were deleted after retention. */
  async markPurged(jobId: string): Promise<void> {
    await this.jobs().update(
      { id: jobId, storagePurgedAt: IsNull() },
      { storagePurgedAt: () => 'now()' },
    );
  }

  /** Every job that has not ended (what a starting ingest hands to the splitter again). */
  async findUnfinished(limit = 500): Promise<string[]> {
    const jobs = await this.jobs().find({
      select: { id: true },
      where: { status: In(LIVE_STATUSES) },
      order: { createdAt: 'ASC' },
      take: limit,
    });
    return jobs.map((j) => j.id);
  }

  /**
   * Jobs still in their initial status (queued) after `queuedMs` (their hand-over to the
   * splitter may be lost).
   */
  async findQueued(queuedMs: number, limit = 500): Promise<string[]> {
    const jobs = await this.jobs()
      .createQueryBuilder('j')
      .select('j.id')
      .where(
        `${statusIn([INITIAL_STATUS], 'j')} AND j.updated_at < now() - (CAST(:queuedMs AS integer) * interval '1 millisecond')`,
        { queuedMs },
      )
      .orderBy('j.created_at')
      .limit(limit)
      .getMany();
    return jobs.map((j) => j.id);
  }

  /**
   * Claims the processing jobs without progress (no chunk recorded, no split checkpoint, no
   * recovery) for `stallMs` and not being assembled: restarts their clock. A stall counts
   * against a job only when no chunk of any job was recorded meanwhile either (a job waiting
   * its turn behind others is not stuck): such a stall is one more recovery
   * (`stall_recoveries`, since the job's last scored chunk) while fewer than `maxRecoveries`
   * were made, and otherwise leaves the job `exhausted`, its count at `maxRecoveries`: the
   * count the job's failure then states.
   */
  async claimStalled(
    stallMs: number,
    maxRecoveries: number,
    limit = 500,
  ): Promise<{ id: string; stallRecoveries: number; exhausted: boolean }[]> {
    // Raw SQL: one statement claims the jobs and decides "no job made progress", so two ingest
    // replicas never claim the same stall twice. The progress check is an uncorrelated
    // subquery of a one-row CTE: it runs once, and only when some job is stalled.
    const rows = await this.db.query<
      { id: string; stall_recoveries: number; exhausted: boolean }[]
    >(
      `WITH stalled AS (
              SELECT id, stall_recoveries FROM batch_jobs
               WHERE ${statusIn(RUNNING_STATUSES)}
                 AND updated_at < now() - ($1::integer * interval '1 millisecond')
                 AND (assembly_lease_until IS NULL OR assembly_lease_until < now())
               ORDER BY created_at LIMIT $2
               FOR UPDATE SKIP LOCKED),
            idle AS (
              SELECT NOT EXISTS (
                SELECT 1 FROM batch_chunks
                 WHERE created_at > now() - ($1::integer * interval '1 millisecond')) AS idle
               WHERE EXISTS (SELECT 1 FROM stalled)),
            claimed AS (
              UPDATE batch_jobs j
                 SET updated_at = now(),
                     stall_recoveries = j.stall_recoveries +
                       CASE WHEN idle.idle AND stalled.stall_recoveries < $3 THEN 1 ELSE 0 END
                FROM stalled, idle
               WHERE j.id = stalled.id AND ${statusIn(RUNNING_STATUSES, 'j')}
              RETURNING j.id, j.stall_recoveries,
                        idle.idle AND stalled.stall_recoveries >= $3 AS exhausted)
       SELECT id, stall_recoveries, exhausted FROM claimed`,
      [stallMs, limit, maxRecoveries],
    );
    return rows.map((r) => ({
      id: r.id,
      stallRecoveries: Number(r.stall_recoveries),
      exhausted: r.exhausted,
    }));
  }

  /**
   * Per unfinished status, the longest time one job has gone without a scored chunk (counted
   * from its creation until its first chunk), 0 when no job has the status: what the
   * no-progress alert watches. A re-split touches updated_at, so progress is read from
   * batch_chunks instead.
   */
  async longestIdle(): Promise<{ status: UnfinishedJobStatus; idleSeconds: number }[]> {
    // Raw SQL: a correlated aggregate per job, then per status; one read for the metric.
    const rows = await this.db.query<{ status: LiveStatus; idle: string }[]>(
      `SELECT j.status,
              extract(epoch FROM now() - min(coalesce(
                (SELECT max(c.created_at) FROM batch_chunks c WHERE c.job_id = j.id),
                j.created_at))) AS idle
         FROM batch_jobs j
        WHERE ${statusIn(LIVE_STATUSES, 'j')}
        GROUP BY j.status`,
    );
    // Both statuses always: 0 when none is waiting, so a missing series means a failing read.
    return LIVE_STATUSES.map((status) => {
      const row = rows.find((r) => r.status === status);
      return { status, idleSeconds: row ? Math.max(0, Number(row.idle)) : 0 };
    });
  }
}
