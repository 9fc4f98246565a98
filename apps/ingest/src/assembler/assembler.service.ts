import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchAssemblyRepository,
  type AssemblyAttempt,
  BatchJobRepository,
  BatchProgressRepository,
  decodeProgress,
  JobLifecycle,
  resultFile,
  resultFileFormat,
  resultKey,
  type BatchJobRecord,
  BatchOutages,
  WorkerService,
} from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type BusMessage, type RowBus } from '@verity/ports';
import { counted } from '@verity/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import { ChunkRecorder } from './chunk-recorder';

/** How often a report that found another handler assembling its job looks again. */
const ASSEMBLY_POLL_MS = 100;

/**
 * The assembler: consumes `verity.batch.progress`, whose reports are spread over every
 * partition (chunk n's report on partition n mod P) and handled one per partition at once, so
 * they arrive in any order, duplicated or concurrently. The database decides: each chunk
 * completion is recorded once together with processed_rows (concurrent completions share one
 * statement, see ChunkRecorder); whichever report finds the split count known and every chunk
 * in — the last chunk, the split report, or a redelivery after a crash — asks to assemble: it
 * claims the assembly on the job row (one statement: a token and a lease, see
 * BatchAssemblyRepository.tryAssembly), writes the result file by multipart upload holding no
 * transaction or connection, and marks the job done in one statement that checks its state,
 * so one handler assembles at a time and the others find the job done (JobLifecycle.finish, which
 * runs the end effects: clean-up and the webhook). A chunk's running count (`chunk_progress`) only moves the job's progress_rows.
 * Every step is idempotent and the offset is committed only after
 * the handler finished, so a crash anywhere replays safely.
 */
@Injectable()
export class AssemblerService extends WorkerService implements OnApplicationBootstrap {
  /** Chunks still awaited per job seen by this process (the pending-chunks gauge). */
  private readonly pending = new Map<string, number>();
  /** Jobs whose end effects this process saw run (late reports then cost nothing). */
  private readonly finished = new Set<string>();
  /** Group commit of concurrent chunk completions. */
  private readonly recorder: ChunkRecorder;
  /** This process's name on the assembly claims it takes (INSTANCE_ID, else the host name). */
  private readonly holder: string;

  constructor(
    private readonly repository: BatchJobRepository,
    private readonly assembly: BatchAssemblyRepository,
    private readonly progress: BatchProgressRepository,
    private readonly lifecycle: JobLifecycle,
    outages: BatchOutages,
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
    @Optional() @Inject(METRICS) metrics: VerityMetrics | null = null,
  ) {
    // Reports are redelivered until handled: an outage pauses the consumer and logs once.
    super('assembler', outages, config.BATCH_OUTAGE_BUDGET_MS, metrics);
    this.recorder = new ChunkRecorder((chunks) => this.repository.recordChunks(chunks));
    this.holder = config.INSTANCE_ID ?? hostname();
  }

  async onApplicationBootstrap(): Promise<void> {
    // Claims under our name were taken by a run of this process that died while assembling.
    const released = await this.assembly.releaseAssembliesOf(this.holder);
    if (released > 0)
      this.log.log(`gave back ${counted(released, 'assembly claim')} of a previous run`);
    await this.consume({
      bus: this.bus,
      group: this.names.assemblerGroup,
      topic: this.names.progressTopic,
      partitions: this.config.KAFKA_CHUNK_PARTITIONS,
      // Reports are spread over partitions and recorded in groups: take them all at once.
      concurrency: this.config.KAFKA_CHUNK_PARTITIONS,
      what: 'progress',
      handle: (msg) => this.handle(msg),
    });
  }

  /** Handles one progress report. */
  async handle(msg: BusMessage): Promise<void> {
    const report = decodeProgress(msg.value);
    if (!report) {
      this.log.error(`skipping malformed progress message ${msg.partition}/${msg.offset}`);
      return;
    }
    let job: BatchJobRecord | null;
    switch (report.kind) {
      case 'chunk_progress':
        // Rows scored so far in a chunk: only the job's progress moves (BatchProgressRepository).
        await this.progress.record({
          jobId: report.jobId,
          chunkNo: report.chunkNo,
          rowsScored: report.rows,
        });
        return;
      case 'split':
        job = await this.repository.setChunkCount(report.jobId, report.chunks);
        break;
      case 'chunk':
        job = await this.recorder.record({
          jobId: report.jobId,
          chunkNo: report.chunkNo,
          rows: report.rows,
          verdicts: report.verdicts ?? null,
        });
        break;
      case 'chunk_failed': {
        const failed = await this.lifecycle.fail(
          report.jobId,
          `chunk ${report.chunkNo} failed: ${report.reason}`,
          {
            code: 'internal_error',
            message: `chunk ${report.chunkNo} could not be processed after repeated attempts`,
          },
          () =>
            this.log.warn(
              `job ${report.jobId} failed at chunk ${report.chunkNo}: ${report.reason}`,
            ),
        );
        if (failed) this.remember(report.jobId); // its end effects ran with the failure
        job = null;
        break;
      }
    }
    if (job === null) {
      // Not processing: it ended (maybe in a run that crashed before its end effects ran) or
      // is unknown.
      await this.ended(report.jobId);
      return;
    }
    this.track(job);
    if (job.chunkCount !== null && job.chunksDone >= job.chunkCount) await this.assemble(job);
  }

  private async assemble(seen: BatchJobRecord): Promise<void> {
    for (;;) {
      let attempt: AssemblyAttempt<boolean>;
      try {
        // No transaction is open while the file is written: the claim and the move to done
        // are one statement each, and the key and bytes are the same whoever (re-)writes the
        // file. The move to done runs the job's end effects.
        attempt = await this.assembly.tryAssembly(seen.id, this.holder, async (job) => {
          const key = resultKey(job.id);
          const format = resultFileFormat(job);
          const chunks = Array.from({ length: job.chunkCount! }, (_, n) => n);
          await this.blobs.upload(key, resultFile(this.blobs, job.id, format, chunks));
          return this.lifecycle.finish(job.id, key);
        });
      } catch (error) {
        // A job cancelled while its file was written loses its parts under the writer: that
        // is the cancel, not a failure. Anything else is retried with the report.
        if ((await this.repository.findForWorker(seen.id))?.status !== 'failed') throw error;
        attempt = { state: 'assembled', result: false };
      }
      if (attempt.state !== 'busy') {
        if (attempt.state === 'assembled' && attempt.result) {
          this.log.log(`job ${seen.id} done: ${counted(seen.totalRows, 'row')}`);
          this.remember(seen.id);
        } else if (attempt.state === 'assembled') {
          // The job ended otherwise while this file was written (cancelled): its end effects
          // again, the file included, even if they ran already.
          this.finished.delete(seen.id);
        }
        break;
      }
      // Another handler (here or in another process) is assembling: wait without holding a
      // connection, then look again — it will be done, or gave its claim back, or its holder
      // died and its lease ran out, and we take over.
      await sleep(ASSEMBLY_POLL_MS);
    }
    await this.ended(seen.id);
  }

  /** The job ended: its end effects run again unless this process saw them run. */
  private async ended(jobId: string): Promise<void> {
    this.pending.delete(jobId);
    this.publishGauge();
    if (this.finished.has(jobId)) return;
    if (await this.lifecycle.replayEnd(jobId)) this.remember(jobId);
  }

  private remember(jobId: string): void {
    if (this.finished.size >= 10_000) this.finished.clear();
    this.finished.add(jobId);
  }

  private track(job: BatchJobRecord): void {
    if (job.chunkCount !== null)
      this.pending.set(job.id, Math.max(0, job.chunkCount - job.chunksDone));
    this.publishGauge();
  }

  private publishGauge(): void {
    let sum = 0;
    for (const n of this.pending.values()) sum += n;
    this.metrics?.assemblerPendingChunks.set(sum);
  }
}
