import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, LessThan } from 'typeorm';
import { BatchJobEntity } from '@verity/database';
import type { BatchJobRecord } from './batch-job.record';

/**
 * The batch_jobs reads and writes of ingest's background services, apart from the job
 * lifecycle in BatchJobRepository: retention (expired jobs, purge marks), recovery (abandoned
 * jobs) and the no-progress metric. None acts for a tenant; each spans every account.
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

  /** Jobs to hand to the splitter again: queued for longer than `queuedMs`, or processing without progress for `stallMs`. */
  async findAbandoned(queuedMs: number, stallMs: number, limit = 500): Promise<string[]> {
    const jobs = await this.jobs()
      .createQueryBuilder('j')
      .select('j.id')
      .where(
        `(j.status = 'queued' AND j.updated_at < now() - (CAST(:queuedMs AS integer) * interval '1 millisecond'))
          OR (j.status = 'processing' AND j.updated_at < now() - (CAST(:stallMs AS integer) * interval '1 millisecond'))`,
        { queuedMs, stallMs },
      )
      .orderBy('j.created_at')
      .limit(limit)
      .getMany();
    return jobs.map((j) => j.id);
  }

  /**
   * Per unfinished status, the longest time one job has gone without a scored chunk (counted
   * from its creation until its first chunk), 0 when no job has the status: what the
   * no-progress alert watches. A re-split touches updated_at, so progress is read from
   * batch_chunks instead.
   */
  async longestIdle(): Promise<{ status: 'queued' | 'processing'; idleSeconds: number }[]> {
    // Raw SQL: a correlated aggregate per job, then per status; one read for the metric.
    const rows = await this.db.query<{ status: 'queued' | 'processing'; idle: string }[]>(
      `SELECT j.status,
              extract(epoch FROM now() - min(coalesce(
                (SELECT max(c.created_at) FROM batch_chunks c WHERE c.job_id = j.id),
                j.created_at))) AS idle
         FROM batch_jobs j
        WHERE j.status IN ('queued', 'processing')
        GROUP BY j.status`,
    );
    // Both statuses always: 0 when none is waiting, so a missing series means a failing read.
    return (['queued', 'processing'] as const).map((status) => {
      const row = rows.find((r) => r.status === status);
      return { status, idleSeconds: row ? Math.max(0, Number(row.idle)) : 0 };
    });
  }
}
