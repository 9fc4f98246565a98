import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  batchNames,
  type BatchNames,
  BLOB_STORE,
  BatchJobRepository,
  BatchJobsService,
  ROW_BUS,
  decodeProgress,
  resultKey,
  type BatchJobRecord,
  type BlobStore,
  type BusMessage,
  type RowBus,
  type Subscription,
} from '@verity/batch';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import { watchLag } from '../host/lag-source';
import { JobFinisher } from './job-finisher';
import { resultFile } from './result-file';

/**
 * The assembler: consumes `verity.batch.progress` (keyed by job, so one job's reports arrive in
 * order on one partition). Each chunk completion is recorded once in Postgres together with
 * processed_rows (one statement); once the split count is known and every chunk is in, it
 * writes the result file by multipart upload, marks the job done (guarded), then cleans up and
 * enqueues the webhook. Every step is idempotent, so a redelivery or a crash anywhere replays
 * safely; the offset is committed only after the handler finished.
 */
@Injectable()
export class AssemblerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('Assembler');
  private subscription?: Subscription;
  /** Chunks still awaited per job seen by this process (the pending-chunks gauge). */
  private readonly pending = new Map<string, number>();
  /** Jobs this process already cleaned up after their end (late reports then cost nothing). */
  private readonly finished = new Set<string>();

  constructor(
    private readonly repository: BatchJobRepository,
    private readonly jobs: BatchJobsService,
    private readonly finisher: JobFinisher,
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null,
  ) {}

  /** Topic, group and queue names (BATCH_NAMESPACE). */
  private get names(): BatchNames {
    return batchNames(this.config.BATCH_NAMESPACE);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopic(this.names.progressTopic, this.config.KAFKA_CHUNK_PARTITIONS);
    this.subscription = await this.bus.consume(
      this.names.assemblerGroup,
      this.names.progressTopic,
      (msg) => this.handle(msg),
      {
        concurrency: this.config.KAFKA_CHUNK_PARTITIONS,
        onHandlerError: (error, msg, attempt) =>
          this.log.warn(
            `progress ${msg.partition}/${msg.offset} failed (attempt ${attempt}): ${String(error)}`,
          ),
      },
    );
    watchLag(this.metrics, this.bus, this.names.assemblerGroup, this.names.progressTopic);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
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
      case 'split':
        job = await this.repository.setChunkCount(report.jobId, report.chunks);
        break;
      case 'chunk':
        job = await this.repository.recordChunk(report.jobId, report.chunkNo, report.rows);
        break;
      case 'chunk_failed': {
        const failed = await this.jobs.fail(
          report.jobId,
          `chunk ${report.chunkNo} failed: ${report.reason}`,
        );
        if (failed)
          this.log.warn(`job ${report.jobId} failed at chunk ${report.chunkNo}: ${report.reason}`);
        job = null;
        break;
      }
    }
    if (job === null) {
      // Not processing: it ended (maybe in a run that crashed before its clean-up) or is unknown.
      await this.afterEnd(report.jobId);
      return;
    }
    this.track(job);
    if (job.chunkCount !== null && job.chunksDone >= job.chunkCount) await this.assemble(job);
  }

  private async assemble(job: BatchJobRecord): Promise<void> {
    const key = resultKey(job.id);
    await this.blobs.upload(key, resultFile(this.blobs, job.id, job.type, job.chunkCount!));
    if (await this.repository.markDone(job.id, key)) {
      this.metrics?.batchJobs.inc({ status: 'done' });
      this.log.log(`job ${job.id} done: ${job.totalRows} rows`);
    }
    await this.afterEnd(job.id);
  }

  private async afterEnd(jobId: string): Promise<void> {
    this.pending.delete(jobId);
    this.publishGauge();
    if (this.finished.has(jobId)) return;
    const job = await this.repository.findForWorker(jobId);
    if (!job || (job.status !== 'done' && job.status !== 'failed')) return;
    await this.finisher.afterEnd(job);
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
