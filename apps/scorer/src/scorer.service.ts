import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobRepository,
  decodeChunk,
  encodeMessage,
  LineBuffer,
  partKey,
  type ChunkMessage,
  BatchOutages,
  JobLifecycle,
  VerdictCounter,
  WorkerService,
} from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type BusMessage, type RowBus } from '@verity/ports';
import { BATCH_CONFIG, SMTP_CONFIG, type BatchConfig, type SmtpConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { ENGINES, METRICS, TEST_ENGINES, type Engines } from '@verity/platform';
import { scoreChunk, type ProbedLines } from './chunk.scorer';
import { ChunkProgressReporter } from './chunk-progress.reporter';
import { JobEndWatch, JobEnded } from './job-end.watch';
import { SmtpRetryWindow } from './smtp-retry.window';

/** The scorer is stopping: an SMTP chunk in flight is left for redelivery, not finished. */
class ScorerStopping extends Error {
  constructor() {
    super('scorer stopping: the chunk is scored again after the restart');
  }
}

/** Scored chunks remembered for skipping re-sent copies (a few jobs' worth; then forgotten). */
const SCORED_MEMORY = 10_000;

/**
 * A scorer: one member of group `verity-scorers` on `verity.batch.chunks`, and of group
 * `verity-scorer-retries` on `verity.batch.chunk-retries`, where SMTP chunks held by the retry
 * window come back for their next round (SmtpRetryWindow; its own consumer, so a chunk waiting
 * for its round never waits in front of other chunks). Per chunk it checks
 * the job is still running, scores the rows (a test job's chunk, `mode: "test"`, with
 * TEST_ENGINES: no network, docs/test-mode.md), writes the part to the blob store under a key
 * derived from (job, chunk) — a redelivery overwrites it with the same bytes — and reports the
 * completion on `verity.batch.progress` (a chunk whose job ended while it was scored, e.g.
 * cancelled, is dropped: its scoring stops within about a second (JobEndWatch), no part is
 * left, nothing is reported); while it scores, it reports its running count of rows
 * there too, about once a second (ChunkProgressReporter). The offset is committed only after both (RowBus
 * contract). A chunk that fails BATCH_CHUNK_MAX_ATTEMPTS times in a row is dead-lettered: a
 * `chunk_failed` report makes the assembler fail the job and refund its unprocessed rows.
 * Failures because a dependency is down are not counted while the outage is younger than
 * BATCH_OUTAGE_BUDGET_MS: the consumer pauses and the chunk waits (see OutageWatch).
 */
@Injectable()
export class ScorerService extends WorkerService implements OnApplicationBootstrap {
  /** Failed deliveries per message (topic/partition/offset) held by this process. */
  private readonly failures = new Map<string, number>();
  /**
   * Chunks (job/chunkNo) this process scored and reported. A resumed split may publish a chunk
   * again; the copy lands on the same partition, so on this consumer, and is skipped without
   * scoring or a database read (its part and report already exist).
   */
  private readonly scored = new Set<string>();
  private readonly retryWindow: SmtpRetryWindow;
  /** Aborted at shutdown: SMTP chunks (which may wait minutes) stop instead of finishing. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly repository: BatchJobRepository,
    lifecycle: JobLifecycle,
    outages: BatchOutages,
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(ENGINES) private readonly engines: Engines,
    @Inject(TEST_ENGINES) private readonly testEngines: Engines,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(SMTP_CONFIG) smtp: SmtpConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
    @Optional() @Inject(METRICS) metrics: VerityMetrics | null = null,
  ) {
    super('scorer', outages, config.BATCH_OUTAGE_BUDGET_MS, metrics);
    this.retryWindow = new SmtpRetryWindow({ ...smtp, ...config }, lifecycle, blobs, bus, names);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Completions go to the progress topic: it must exist before the first chunk is scored.
    await this.bus.ensureTopic(this.names.progressTopic, this.config.KAFKA_CHUNK_PARTITIONS);
    const consumer = {
      bus: this.bus,
      partitions: this.config.KAFKA_CHUNK_PARTITIONS,
      concurrency: this.config.BATCH_SCORER_CONCURRENCY,
      handle: (msg: BusMessage) => this.handle(msg),
    };
    // The retries first: their topic must exist before the first chunk is held.
    for (const [group, topic, what] of [
      [this.names.scorerRetryGroup, this.names.chunkRetriesTopic, 'chunk retry'],
      [this.names.scorerGroup, this.names.chunksTopic, 'chunk'],
    ] as const) {
      await this.consume({ ...consumer, group, topic, what });
    }
  }

  /** Stops fetching, lets in-flight chunks finish and commits them. */
  override async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort(new ScorerStopping());
    await super.beforeApplicationShutdown();
  }

  /** Handles one chunk message. */
  async handle(msg: BusMessage): Promise<void> {
    const chunk = decodeChunk(msg.value);
    if (!chunk) {
      this.log.error(`skipping malformed chunk message ${msg.partition}/${msg.offset}`);
      return;
    }
    const id = `${msg.topic}/${msg.partition}/${msg.offset}`;
    try {
      await this.score(chunk);
      this.failures.delete(id);
    } catch (error) {
      if (this.outage.waitsOut(error)) throw error; // redelivered, not counted
      if (error instanceof ScorerStopping) throw error; // left for redelivery
      const failures = (this.failures.get(id) ?? 0) + 1;
      if (failures < this.config.BATCH_CHUNK_MAX_ATTEMPTS) {
        this.failures.set(id, failures);
        throw error;
      }
      this.failures.delete(id);
      this.metrics?.chunksDeadLettered.inc({ type: chunk.type });
      this.log.error(
        `chunk ${chunk.chunkNo} of ${chunk.jobId} dead-lettered after ${failures} failures: ${String(error)}`,
      );
      await this.bus.publish(this.names.progressTopic, [
        {
          ...this.reportTarget(chunk),
          value: encodeMessage({
            v: 1,
            kind: 'chunk_failed',
            jobId: chunk.jobId,
            chunkNo: chunk.chunkNo,
            reason: error instanceof Error ? error.message : String(error),
          }),
        },
      ]);
    }
  }

  private async score(chunk: ChunkMessage): Promise<void> {
    const scoredKey = `${chunk.jobId}/${chunk.chunkNo}`;
    if (this.scored.has(scoredKey)) return;
    const job = await this.repository.findForWorker(chunk.jobId);
    // Ended (or unknown) jobs need no work: a late redelivery must not recreate parts.
    if (!job || job.status !== 'processing') return;
    const watch = new JobEndWatch(chunk.jobId, () => this.repository.isProcessing(chunk.jobId));
    // Only SMTP chunks stop at shutdown: they may wait minutes on mail hosts and retry rounds.
    const signal =
      chunk.smtp === true ? AbortSignal.any([watch.signal, this.stopping.signal]) : watch.signal;
    let scored: Buffer | ProbedLines;
    const verdicts = new VerdictCounter(chunk.type, chunk.fields);
    let progress: ChunkProgressReporter | undefined;
    let stop: (() => number) | undefined;
    try {
      const held =
        chunk.retry === undefined ? undefined : await this.retryWindow.resume(chunk, signal);
      stop = this.metrics?.batchChunkDuration.startTimer({ type: chunk.type });
      progress = new ChunkProgressReporter(
        chunk,
        (rows) => this.reportProgress(chunk, rows),
        (error) =>
          this.log.debug(
            `progress of chunk ${chunk.chunkNo} of ${chunk.jobId} not sent: ${String(error)}`,
          ),
      );
      scored = await scoreChunk(
        chunk,
        watch.engines(chunk.mode === 'test' ? this.testEngines : this.engines),
        {
          emailConcurrency: this.config.BATCH_EMAIL_CONCURRENCY,
          scored: progress.scored,
          signal,
          held: held ?? undefined,
          verdicts,
        },
      );
    } catch (error) {
      if (signal.reason instanceof JobEnded || error instanceof JobEnded) {
        this.dropped(chunk);
        return;
      }
      if (this.stopping.signal.aborted) throw this.stopping.signal.reason;
      throw error;
    } finally {
      progress?.stop();
      watch.stop();
    }
    if (!Buffer.isBuffer(scored)) {
      const pending = scored.retryable.filter(Boolean).length;
      const next = pending > 0 ? this.retryWindow.nextRound(chunk) : null;
      if (next !== null) {
        await this.retryWindow.hold(chunk, scored, next);
        this.metrics?.smtpRetries.inc({ cause: 'temporary_failure' }, pending);
        return;
      }
      const part = new LineBuffer();
      for (const line of scored.lines) part.push(line);
      scored = part.toBuffer();
    }
    if (await this.store(chunk, scored, verdicts)) stop?.();
  }

  /**
   * Stores the chunk's part and reports it with its rows counted by verdict. A job that ended while its chunk was scored
   * (cancelled, or failed) gets no part and no completion. Asked before the write and again
   * after it: a job that ends between the two may have had its parts deleted before this one
   * landed, so this part is deleted here.
   */
  private async store(
    chunk: ChunkMessage,
    part: Buffer,
    verdicts: VerdictCounter,
  ): Promise<boolean> {
    if (!(await this.repository.isProcessing(chunk.jobId))) return this.dropped(chunk);
    const key = partKey(chunk.jobId, chunk.chunkNo);
    await this.blobs.put(key, part);
    if (!(await this.repository.isProcessing(chunk.jobId))) {
      await this.blobs.delete(key);
      return this.dropped(chunk);
    }
    await this.bus.publish(this.names.progressTopic, [
      {
        ...this.reportTarget(chunk),
        value: encodeMessage({
          v: 1,
          kind: 'chunk',
          jobId: chunk.jobId,
          chunkNo: chunk.chunkNo,
          rows: chunk.rows.length,
          verdicts: verdicts.summary(),
        }),
      },
    ]);
    await this.retryWindow.release(chunk);
    this.metrics?.batchRowsProcessed.inc({ type: chunk.type }, chunk.rows.length);
    if (this.scored.size >= SCORED_MEMORY) this.scored.clear();
    this.scored.add(`${chunk.jobId}/${chunk.chunkNo}`);
    return true;
  }

  private dropped(chunk: ChunkMessage): false {
    this.log.log(
      `chunk ${chunk.chunkNo} of ${chunk.jobId} dropped: the job ended while it was scored`,
    );
    return false;
  }

  private async reportProgress(chunk: ChunkMessage, rows: number): Promise<void> {
    await this.bus.publish(this.names.progressTopic, [
      {
        ...this.reportTarget(chunk),
        value: encodeMessage({
          v: 1,
          kind: 'chunk_progress',
          jobId: chunk.jobId,
          chunkNo: chunk.chunkNo,
          rows,
        }),
      },
    ]);
  }

  /**
   * Where a chunk's report goes: partition chunkNo mod P, like the chunk itself, so one job's
   * reports are spread over every partition and the assembler handles them in parallel (it
   * does not depend on their order).
   */
  private reportTarget(chunk: ChunkMessage): { key: string; partition: number } {
    return {
      key: `${chunk.jobId}/${chunk.chunkNo}`,
      partition: chunk.chunkNo % this.config.KAFKA_CHUNK_PARTITIONS,
    };
  }
}
