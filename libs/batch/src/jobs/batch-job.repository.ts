import { Injectable } from '@nestjs/common';
import { DataSource, In, MoreThanOrEqual, type UpdateQueryBuilder } from 'typeorm';
import type { BatchJobSummary, BatchListStatus, KeyMode } from '@verity/contracts';
import {
  AccountEntity,
  BatchChunkEntity,
  BatchJobEntity,
  entitiesFromRows,
} from '@verity/database';
import type { BatchJobRecord } from './batch-job.record';
import { managerOf, type Db } from './batch-jobs.db';
import { LIVE_STATUSES, RUNNING_STATUSES, listFilterOf } from './job-states';
import { statusIn } from './job-status.sql';

/** A scorer's report that chunk `chunkNo` of `jobId` (`rows` rows) is stored. */
export interface ChunkCompletion {
  jobId: string;
  chunkNo: number;
  rows: number;
  /** The chunk's rows counted by verdict; absent or null from a scorer that sends none. */
  verdicts?: BatchJobSummary | null;
}

/**
 * Runs an `UPDATE … RETURNING *` built on batch_jobs; the updated job, or null if none. Shared
 * with BatchAssemblyRepository and JobLifecycleRepository.
 */
export async function updateJobReturning(
  db: Db,
  build: (qb: UpdateQueryBuilder<BatchJobEntity>) => UpdateQueryBuilder<BatchJobEntity>,
): Promise<BatchJobEntity | null> {
  const manager = managerOf(db);
  const result = await build(manager.getRepository(BatchJobEntity).createQueryBuilder().update())
    .returning('*')
    .execute();
  return entitiesFromRows(manager, BatchJobEntity, result.raw)[0] ?? null;
}

/**
 * The batch_jobs and batch_chunks reads, and the pipeline's writes while a job runs (recorded
 * chunks, the split checkpoint, the chunk count), through TypeORM (repositories, query
 * builder). The status column is the job lifecycle's (JobLifecycleRepository), and so is
 * which statuses a statement here accepts (LIVE_STATUSES, RUNNING_STATUSES); the assembly
 * claim is in BatchAssemblyRepository; retention, recovery and the no-progress report in
 * BatchJobHousekeeping. Raw SQL only for the group commit of chunk completions, with its
 * reason. Reads on behalf of a tenant take its account id and the caller's key mode
 * (`…ForAccount`: test and live jobs never show to each other); the `…ForWorker` reads are
 * for the pipeline and the signed download, where the job id itself is the authority (it came
 * from a trusted queue or a valid signature).
 */
@Injectable()
export class BatchJobRepository {
  constructor(private readonly db: DataSource) {}

  private jobs(db: Db = this.db) {
    return managerOf(db).getRepository(BatchJobEntity);
  }

  /** A tenant's job of `mode`, or null for an unknown id, another account's or mode's job. */
  findForAccount(
    accountId: string,
    mode: KeyMode,
    jobId: string,
    db: Db = this.db,
  ): Promise<BatchJobRecord | null> {
    return this.jobs(db).findOneBy({ id: jobId, accountId, mode });
  }

  /** A tenant's most recent jobs of `mode`, newest first. */
  listForAccount(accountId: string, mode: KeyMode, limit: number): Promise<BatchJobRecord[]> {
    return this.jobs().find({
      where: { accountId, mode },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /**
   * A page of a tenant's jobs of `mode`, newest first in (created_at, id) order: at most `limit`,
   * only `status` when given, and only those after job `after` (the previous page's last, which
   * must be the tenant's: a foreign id selects nothing).
   */
  listPage(
    accountId: string,
    mode: KeyMode,
    page: { limit: number; after?: string; status?: BatchListStatus },
  ): Promise<BatchJobRecord[]> {
    const qb = this.jobs()
      .createQueryBuilder('j')
      .where('j.account_id = :accountId AND j.mode = :mode', { accountId, mode });
    if (page.status !== undefined) {
      const filter = listFilterOf(page.status);
      qb.andWhere('j.status = :status', { status: filter.status });
      if (filter.failureCode !== undefined)
        qb.andWhere('j.failure_code = :failureCode', { failureCode: filter.failureCode });
    }
    if (page.after !== undefined) {
      qb.andWhere(
        `(j.created_at, j.id) < (SELECT c.created_at, c.id FROM batch_jobs c
            WHERE c.id = :after AND c.account_id = :accountId AND c.mode = :mode)`,
        { after: page.after },
      );
    }
    return qb
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(page.limit)
      .getMany();
  }

  /** A tenant's job created with `key` as Idempotency-Key. */
  findByIdempotencyKey(
    accountId: string,
    key: string,
    db: Db = this.db,
  ): Promise<BatchJobRecord | null> {
    return this.jobs(db).findOneBy({ accountId, idempotencyKey: key });
  }

  /** The tenant's jobs that have not ended (what BATCH_MAX_ACTIVE_JOBS counts). */
  countActiveForAccount(accountId: string, db: Db = this.db): Promise<number> {
    return this.jobs(db).countBy({ accountId, status: In(LIVE_STATUSES) });
  }

  /** A job by id for the pipeline and the signed download. */
  findForWorker(jobId: string, db: Db = this.db): Promise<BatchJobRecord | null> {
    return this.jobs(db).findOneBy({ id: jobId });
  }

  /**
   * Whether the job is still running (processing): what a scorer asks before and after it stores a chunk's
   * part, so a job that ended meanwhile (cancelled, failed) gets no part and no completion.
   */
  async isProcessing(jobId: string): Promise<boolean> {
    return this.jobs().existsBy({ id: jobId, status: In(RUNNING_STATUSES) });
  }

  /** Locks the job's account row (inside a transaction): an account's creations in turn. */
  async lockAccount(accountId: string, db: Db): Promise<void> {
    await managerOf(db)
      .getRepository(AccountEntity)
      .createQueryBuilder('a')
      .select('a.id')
      .where('a.id = :accountId', { accountId })
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * Records a scored chunk once (its primary key makes a redelivery a no-op) and adds its rows
   * to processed_rows, in one statement. Null unless the job is processing.
   */
  async recordChunk(
    jobId: string,
    chunkNo: number,
    rows: number,
    verdicts: BatchJobSummary | null = null,
  ): Promise<BatchJobRecord | null> {
    return (await this.recordChunks([{ jobId, chunkNo, rows, verdicts }])).get(jobId) ?? null;
  }

  /**
   * Records many scored chunks (of any jobs) in one statement, so concurrent completions share
   * one commit: each (job, chunk) is inserted once — a redelivery, or the same chunk twice in
   * `chunks`, is a no-op — and every job's processed_rows and chunks_done grow by what was new.
   * The chunk's verdict counts are recorded with it, once: what the job's summary sums.
   * The jobs' rows are locked (in id order) before anything is inserted and their status is
   * checked on the locked row, so a job that failed meanwhile (JobLifecycle.fail holds the
   * same lock) gets no chunk recorded after its end, and processed_rows always equals the sum
   * of its recorded chunks.
   * Returns each job's row after the statement, or null for a job that is not processing.
   * Jobs whose chunks were all already recorded come back as currently committed.
   */
  async recordChunks(
    chunks: readonly ChunkCompletion[],
  ): Promise<Map<string, BatchJobRecord | null>> {
    const out = new Map<string, BatchJobRecord | null>();
    if (chunks.length === 0) return out;
    // Raw SQL: a CTE locks, inserts ON CONFLICT DO NOTHING and sums per job in one round trip
    // (the assembler's group commit), which neither repositories nor the query builder express.
    const rows = await this.db.query<Record<string, unknown>[]>(
      `WITH input AS (
              SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::jsonb[])
                         AS t(job_id, chunk_no, rows, verdicts)),
            live AS (
              SELECT id FROM batch_jobs
               WHERE id = ANY($1::text[]) AND ${statusIn(RUNNING_STATUSES)}
               ORDER BY id FOR UPDATE),
            ins AS (
              INSERT INTO batch_chunks (job_id, chunk_no, rows, verdicts)
              SELECT i.job_id, i.chunk_no, i.rows, i.verdicts FROM input i JOIN live l ON l.id = i.job_id
              ORDER BY i.job_id, i.chunk_no
              ON CONFLICT (job_id, chunk_no) DO NOTHING
              RETURNING job_id, rows),
            sums AS (SELECT job_id, sum(rows)::int AS rows, count(*)::int AS n FROM ins GROUP BY job_id),
            upd AS (
              UPDATE batch_jobs b
                 SET processed_rows = b.processed_rows + s.rows, chunks_done = b.chunks_done + s.n,
                     stall_recoveries = 0, updated_at = now()
                FROM sums s
               WHERE b.id = s.job_id AND ${statusIn(RUNNING_STATUSES, 'b')}
              RETURNING b.*)
       SELECT * FROM upd
       UNION ALL
       SELECT b.* FROM batch_jobs b
        WHERE b.id = ANY($1::text[]) AND ${statusIn(RUNNING_STATUSES, 'b')}
          AND NOT EXISTS (SELECT 1 FROM upd WHERE upd.id = b.id)`,
      [
        chunks.map((c) => c.jobId),
        chunks.map((c) => c.chunkNo),
        chunks.map((c) => c.rows),
        chunks.map((c) => (c.verdicts ? JSON.stringify(c.verdicts) : null)),
      ],
    );
    for (const c of chunks) out.set(c.jobId, null);
    for (const job of entitiesFromRows(this.db, BatchJobEntity, rows)) out.set(job.id, job);
    return out;
  }

  /**
   * Moves the split checkpoint forward (never back: a second splitter that is behind changes
   * nothing). False once the job is no longer processing, so the splitter can stop.
   */
  async saveSplitCheckpoint(jobId: string, chunks: number, rows: number): Promise<boolean> {
    const result = await this.jobs()
      .createQueryBuilder()
      .update()
      .set({
        splitChunks: () => 'greatest(split_chunks, :chunks)',
        splitRows: () => 'greatest(split_rows, :rows)',
        updatedAt: () => 'now()',
      })
      .where(`id = :jobId AND ${statusIn(RUNNING_STATUSES)}`, { jobId, chunks, rows })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Numbers of the job's recorded chunks from `fromChunk` on (what a resumed split may skip). */
  async recordedChunksFrom(jobId: string, fromChunk: number): Promise<Set<number>> {
    const chunks = await this.db.getRepository(BatchChunkEntity).find({
      select: { chunkNo: true },
      where: { jobId, chunkNo: MoreThanOrEqual(fromChunk) },
    });
    return new Set(chunks.map((c) => c.chunkNo));
  }

  /** Forgets a failed job's partial file that cannot be written (a scored part is gone). */
  async dropPartial(jobId: string): Promise<void> {
    await this.jobs().update({ id: jobId }, { partialKey: null });
  }

  /** Records how many chunks the split produced. Null unless the job is processing. */
  setChunkCount(jobId: string, chunks: number): Promise<BatchJobRecord | null> {
    return updateJobReturning(this.db, (qb) =>
      qb
        .set({ chunkCount: chunks, updatedAt: () => 'now()' })
        .where(`id = :jobId AND ${statusIn(RUNNING_STATUSES)}`, { jobId }),
    );
  }

  /** Rows of the job's recorded chunks (what was scored and stays paid). */
  async recordedRows(jobId: string, db: Db = this.db): Promise<number> {
    return (await managerOf(db).getRepository(BatchChunkEntity).sum('rows', { jobId })) ?? 0;
  }

  /** The per-account webhook signing secret. */
  async webhookSecretOf(accountId: string): Promise<string | null> {
    const account = await this.db.getRepository(AccountEntity).findOne({
      select: { webhookSecret: true },
      where: { id: accountId },
    });
    return account?.webhookSecret ?? null;
  }
}
