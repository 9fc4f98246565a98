import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { BatchJobError, BatchType } from '@verity/contracts';
import { toRecord, type BatchJobRecord, type BatchJobRow } from './batch-job.record';

/** What a new job row holds. */
export interface NewBatchJob {
  id: string;
  accountId: string;
  /** The API key that created the job (CONSOLE_KEY_ID from the console); usage is counted on it. */
  keyId: string | null;
  type: BatchType;
  totalRows: number;
  uploadKey: string;
  webhookUrl: string | null;
  baseUrl: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

type Db = DataSource | EntityManager | QueryRunner;

/** Outcome of {@link BatchJobRepository.tryAssembly}. */
export type AssemblyAttempt<T> =
  { state: 'busy' } | { state: 'not_ready' } | { state: 'assembled'; result: T };

/** A scorer's report that chunk `chunkNo` of `jobId` (`rows` rows) is stored. */
export interface ChunkCompletion {
  jobId: string;
  chunkNo: number;
  rows: number;
}

async function one(db: Db, sql: string, params: unknown[]): Promise<BatchJobRecord | null> {
  const result = (await db.query(sql, params)) as BatchJobRow[] | [BatchJobRow[], number];
  // UPDATE ... RETURNING comes back from TypeORM's pg driver as [rows, affected].
  const rows = Array.isArray(result[0]) ? result[0] : (result as BatchJobRow[]);
  return rows.length > 0 ? toRecord(rows[0]) : null;
}

/**
 * SQL of the batch_jobs and batch_chunks tables. Reads on behalf of a tenant take its account
 * id (`…ForAccount`); the `…ForWorker` reads are for the pipeline and the signed download,
 * where the job id itself is the authority (it came from a trusted queue or a valid signature).
 */
@Injectable()
export class BatchJobRepository {
  constructor(private readonly db: DataSource) {}

  /** A tenant's job, or null for an unknown id or another account's job. */
  findForAccount(
    accountId: string,
    jobId: string,
    db: Db = this.db,
  ): Promise<BatchJobRecord | null> {
    return one(db, 'SELECT * FROM batch_jobs WHERE id = $1 AND account_id = $2', [
      jobId,
      accountId,
    ]);
  }

  /** A tenant's most recent jobs, newest first. */
  async listForAccount(accountId: string, limit: number): Promise<BatchJobRecord[]> {
    const rows = await this.db.query<BatchJobRow[]>(
      'SELECT * FROM batch_jobs WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
      [accountId, limit],
    );
    return rows.map(toRecord);
  }

  /** A tenant's job created with `key` as Idempotency-Key. */
  findByIdempotencyKey(
    accountId: string,
    key: string,
    db: Db = this.db,
  ): Promise<BatchJobRecord | null> {
    return one(db, 'SELECT * FROM batch_jobs WHERE account_id = $1 AND idempotency_key = $2', [
      accountId,
      key,
    ]);
  }

  /** Queued or processing jobs of a tenant. */
  async countActiveForAccount(accountId: string, db: Db = this.db): Promise<number> {
    const rows = (await db.query(
      `SELECT count(*)::int AS n FROM batch_jobs WHERE account_id = $1 AND status IN ('queued', 'processing')`,
      [accountId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /** A job by id for the pipeline and the signed download. */
  findForWorker(jobId: string, db: Db = this.db): Promise<BatchJobRecord | null> {
    return one(db, 'SELECT * FROM batch_jobs WHERE id = $1', [jobId]);
  }

  /** Locks and returns a job (inside a transaction). */
  lockForWorker(jobId: string, db: Db): Promise<BatchJobRecord | null> {
    return one(db, 'SELECT * FROM batch_jobs WHERE id = $1 FOR UPDATE', [jobId]);
  }

  async insert(job: NewBatchJob, db: Db = this.db): Promise<BatchJobRecord> {
    const created = await one(
      db,
      `INSERT INTO batch_jobs (id, account_id, type, status, total_rows, upload_key, webhook_url, base_url,
                               idempotency_key, request_hash, key_id)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        job.id,
        job.accountId,
        job.type,
        job.totalRows,
        job.uploadKey,
        job.webhookUrl,
        job.baseUrl,
        job.idempotencyKey,
        job.requestHash,
        job.keyId,
      ],
    );
    return created!;
  }

  /** queued → processing (processing stays processing: a re-split). Null once the job ended. */
  markProcessing(jobId: string): Promise<BatchJobRecord | null> {
    return one(
      this.db,
      `UPDATE batch_jobs SET status = 'processing', updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'processing') RETURNING *`,
      [jobId],
    );
  }

  /**
   * Records a scored chunk once (its primary key makes a redelivery a no-op) and adds its rows
   * to processed_rows, in one statement. Null unless the job is processing.
   */
  async recordChunk(jobId: string, chunkNo: number, rows: number): Promise<BatchJobRecord | null> {
    return (await this.recordChunks([{ jobId, chunkNo, rows }])).get(jobId) ?? null;
  }

  /**
   * Records many scored chunks (of any jobs) in one statement, so concurrent completions share
   * one commit: each (job, chunk) is inserted once — a redelivery, or the same chunk twice in
   * `chunks`, is a no-op — and every job's processed_rows and chunks_done grow by what was new.
   * The jobs' rows are locked (in id order) before anything is inserted and their status is
   * checked on the locked row, so a job that failed meanwhile (BatchJobsService.fail holds the
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
    const result = await this.db.query<BatchJobRow[]>(
      `WITH input AS (
              SELECT * FROM unnest($1::text[], $2::int[], $3::int[]) AS t(job_id, chunk_no, rows)),
            live AS (
              SELECT id FROM batch_jobs
               WHERE id = ANY($1::text[]) AND status = 'processing'
               ORDER BY id FOR UPDATE),
            ins AS (
              INSERT INTO batch_chunks (job_id, chunk_no, rows)
              SELECT i.job_id, i.chunk_no, i.rows FROM input i JOIN live l ON l.id = i.job_id
              ORDER BY i.job_id, i.chunk_no
              ON CONFLICT (job_id, chunk_no) DO NOTHING
              RETURNING job_id, rows),
            sums AS (SELECT job_id, sum(rows)::int AS rows, count(*)::int AS n FROM ins GROUP BY job_id),
            upd AS (
              UPDATE batch_jobs b
                 SET processed_rows = b.processed_rows + s.rows, chunks_done = b.chunks_done + s.n,
                     updated_at = now()
                FROM sums s
               WHERE b.id = s.job_id AND b.status = 'processing'
              RETURNING b.*)
       SELECT * FROM upd
       UNION ALL
       SELECT b.* FROM batch_jobs b
        WHERE b.id = ANY($1::text[]) AND b.status = 'processing'
          AND NOT EXISTS (SELECT 1 FROM upd WHERE upd.id = b.id)`,
      [chunks.map((c) => c.jobId), chunks.map((c) => c.chunkNo), chunks.map((c) => c.rows)],
    );
    for (const c of chunks) out.set(c.jobId, null);
    for (const row of result) out.set(row.id, toRecord(row));
    return out;
  }

  /**
   * Runs `assemble` for a job whose every chunk is recorded, never twice at once across all
   * processes: inside a transaction holding a per-job advisory lock, after re-reading the job
   * under that lock, and `assemble` marks the job done in that same transaction. `busy` when
   * another connection holds the lock (try again later: it either finishes, and the job is
   * then found done, or dies, and its lock goes with its connection); `not_ready` when the job
   * is not (or no longer) processing with every chunk in.
   */
  async tryAssembly<T>(
    jobId: string,
    assemble: (job: BatchJobRecord, db: Db) => Promise<T>,
  ): Promise<AssemblyAttempt<T>> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // A 64-bit hash of a prefixed id: no clash with other advisory locks (migrations) in
      // practice, and a clash would only make one assembly wait for another.
      const [{ locked }] = (await runner.query(
        `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`,
        [`verity.batch.assemble:${jobId}`],
      )) as { locked: boolean }[];
      if (!locked) {
        await runner.rollbackTransaction();
        return { state: 'busy' };
      }
      const job = await one(
        runner,
        `SELECT * FROM batch_jobs WHERE id = $1 AND status = 'processing'
            AND chunk_count IS NOT NULL AND chunks_done = chunk_count`,
        [jobId],
      );
      if (!job) {
        await runner.rollbackTransaction();
        return { state: 'not_ready' };
      }
      const result = await assemble(job, runner);
      await runner.commitTransaction();
      return { state: 'assembled', result };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Moves the split checkpoint forward (never back: a second splitter that is behind changes
   * nothing). False once the job is no longer processing, so the splitter can stop.
   */
  async saveSplitCheckpoint(jobId: string, chunks: number, rows: number): Promise<boolean> {
    // UPDATE ... RETURNING comes back from TypeORM's pg driver as [rows, affected].
    const result = await this.db.query<[unknown[], number]>(
      `UPDATE batch_jobs SET split_chunks = greatest(split_chunks, $2),
              split_rows = greatest(split_rows, $3), updated_at = now()
       WHERE id = $1 AND status = 'processing' RETURNING id`,
      [jobId, chunks, rows],
    );
    return result[1] > 0;
  }

  /** Numbers of the job's recorded chunks from `fromChunk` on (what a resumed split may skip). */
  async recordedChunksFrom(jobId: string, fromChunk: number): Promise<Set<number>> {
    const rows = await this.db.query<{ chunk_no: number }[]>(
      'SELECT chunk_no FROM batch_chunks WHERE job_id = $1 AND chunk_no >= $2',
      [jobId, fromChunk],
    );
    return new Set(rows.map((r) => Number(r.chunk_no)));
  }

  /** Records how many chunks the split produced. Null unless the job is processing. */
  setChunkCount(jobId: string, chunks: number): Promise<BatchJobRecord | null> {
    return one(
      this.db,
      `UPDATE batch_jobs SET chunk_count = $2, updated_at = now()
       WHERE id = $1 AND status = 'processing' RETURNING *`,
      [jobId, chunks],
    );
  }

  /** processing → done, only when every chunk is recorded. False if another run got there first. */
  async markDone(jobId: string, resultKey: string, db: Db = this.db): Promise<boolean> {
    const done = await one(
      db,
      `UPDATE batch_jobs SET status = 'done', result_key = $2, processed_rows = total_rows,
              updated_at = now(), finished_at = now()
       WHERE id = $1 AND status = 'processing' AND chunk_count IS NOT NULL AND chunks_done = chunk_count
       RETURNING *`,
      [jobId, resultKey],
    );
    return done !== null;
  }

  /** Rows of the job's recorded chunks (what was scored and stays paid). */
  async recordedRows(jobId: string, db: Db = this.db): Promise<number> {
    const rows = (await db.query(
      'SELECT coalesce(sum(rows), 0)::int AS n FROM batch_chunks WHERE job_id = $1',
      [jobId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /** → failed, with the refunded row count and the reason (inside the refund's transaction). */
  async markFailed(
    jobId: string,
    refundedRows: number,
    reason: string,
    error: BatchJobError,
    db: Db,
  ): Promise<BatchJobRecord | null> {
    return one(
      db,
      `UPDATE batch_jobs SET status = 'failed', refunded_rows = $2, failure_reason = $3,
              failure_code = $4, failure_message = $5, updated_at = now(), finished_at = now()
       WHERE id = $1 AND status IN ('queued', 'processing') RETURNING *`,
      [jobId, refundedRows, reason, error.code, error.message],
    );
  }

  /** Jobs that ended before `cutoff` whose stored files were not purged yet, oldest first. */
  async findExpired(cutoff: Date, limit: number): Promise<BatchJobRecord[]> {
    const rows = await this.db.query<BatchJobRow[]>(
      `SELECT * FROM batch_jobs
        WHERE finished_at IS NOT NULL AND storage_purged_at IS NULL AND finished_at < $1
        ORDER BY finished_at LIMIT $2`,
      [cutoff, limit],
    );
    return rows.map(toRecord);
  }

  /** Notes that the job's stored files were deleted after retention. */
  async markPurged(jobId: string): Promise<void> {
    await this.db.query(
      'UPDATE batch_jobs SET storage_purged_at = now() WHERE id = $1 AND storage_purged_at IS NULL',
      [jobId],
    );
  }

  /** Jobs to hand to the splitter again: queued for longer than `queuedMs`, or processing without progress for `stallMs`. */
  async findAbandoned(queuedMs: number, stallMs: number, limit = 500): Promise<string[]> {
    const rows = await this.db.query<{ id: string }[]>(
      `SELECT id FROM batch_jobs
       WHERE (status = 'queued' AND updated_at < now() - ($1::int * interval '1 millisecond'))
          OR (status = 'processing' AND updated_at < now() - ($2::int * interval '1 millisecond'))
       ORDER BY created_at LIMIT $3`,
      [queuedMs, stallMs, limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Per unfinished status, the longest time one job has gone without a scored chunk (counted
   * from its creation until its first chunk), 0 when no job has the status: what the
   * no-progress alert watches. A re-split
   * touches updated_at, so progress is read from batch_chunks instead.
   */
  async longestIdle(): Promise<{ status: 'queued' | 'processing'; idleSeconds: number }[]> {
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

  /** The per-account webhook signing secret. */
  async webhookSecretOf(accountId: string): Promise<string | null> {
    const rows = await this.db.query<{ webhook_secret: string }[]>(
      'SELECT webhook_secret FROM accounts WHERE id = $1',
      [accountId],
    );
    return rows[0]?.webhook_secret ?? null;
  }
}
