import type { Readable } from 'node:stream';
import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobRepository,
  type BatchJobRecord,
  encodeChunk,
  encodedChunkLength,
  encodeMessage,
  JsonPairsCollector,
  JsonRowsCollector,
  readChunksInto,
  storedFormat,
  type JsonRows,
  type RowChunk,
  BatchOutages,
  JobLifecycle,
  InputRefusal,
  WorkerService,
} from '@verity/batch';
import {
  BLOB_STORE,
  BlobNotFoundError,
  JOB_QUEUE,
  ROW_BUS,
  type BlobStore,
  type JobQueue,
  type OutgoingMessage,
  type QueuedJob,
  type RowBus,
} from '@verity/ports';
import { counted } from '@verity/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { BatchJobError } from '@verity/contracts';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import { sizedChunks } from './sized-chunks';

/** Payload of an `ingest` queue job. */
export interface IngestPayload {
  jobId: string;
  /** A stalled job's recovery: publish again every chunk not recorded as scored. */
  recovery?: boolean;
}

/** Largest chunk message (Kafka's default message limit is 1 MB; the record adds a little). */
const MAX_CHUNK_BYTES = 512 * 1024;
/** A bulk publish goes out at this many chunk messages or bytes, whichever comes first. */
const PUBLISH_BATCH = 32;
const PUBLISH_BATCH_BYTES = 1024 * 1024;
/** Split attempts before the job fails. */
export const SPLIT_ATTEMPTS = 5;

/** What the split reads of a job. */
type SplitJob = Pick<
  BatchJobRecord,
  | 'id'
  | 'type'
  | 'mode'
  | 'uploadKey'
  | 'resultFields'
  | 'inputColumn'
  | 'inputHeader'
  | 'smtpProbe'
>;

/**
 * The upload's rows in chunks of JSON rows, read in the format the upload resolved: one value
 * per row, or value and raw line pairs when the job's chunks carry the lines (a multi-column
 * file, whose result keeps them).
 */
function chunksOf(
  job: SplitJob,
  lines: boolean,
  source: Readable,
  chunkRows: number,
  fromRow: number,
): AsyncGenerator<RowChunk<JsonRows>> {
  const format = storedFormat(job.inputColumn, job.inputHeader);
  const collector = lines ? new JsonPairsCollector() : new JsonRowsCollector();
  return readChunksInto(source, chunkRows, fromRow, format, collector);
}

/**
 * The splitter: takes a job from queue `ingest`, marks it processing, streams its upload
 * through the input reader (the one the upload was checked with) and publishes numbered chunks to `verity.batch.chunks` (chunk n on
 * partition n mod P, so one large job keeps every scorer busy), then tells the assembler on
 * `verity.batch.progress` how many chunks there are. A re-run publishes identical chunks and
 * resumes from the split checkpoint (docs/batch.md, "Recovery").
 */
@Injectable()
export class SplitterService extends WorkerService implements OnApplicationBootstrap {
  constructor(
    private readonly repository: BatchJobRepository,
    private readonly lifecycle: JobLifecycle,
    outages: BatchOutages,
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
    @Optional() @Inject(METRICS) metrics: VerityMetrics | null = null,
  ) {
    super('splitter', outages, config.BATCH_OUTAGE_BUDGET_MS, metrics);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopic(this.names.chunksTopic, this.config.KAFKA_CHUNK_PARTITIONS);
    await this.bus.ensureTopic(this.names.progressTopic, this.config.KAFKA_CHUNK_PARTITIONS);
    await this.queue.process<IngestPayload>(
      this.names.ingestQueue,
      2,
      (job) => this.handle(job),
      (job, error) => void this.giveUp(job.payload.jobId, error),
    );
  }

  private async handle(job: QueuedJob<IngestPayload>): Promise<void> {
    try {
      // A dependency outage is waited out here; the queue's attempts are for other failures.
      await this.outage.run(() => this.split(job.payload.jobId, job.payload.recovery === true));
    } catch (error) {
      // A file the reader refuses (one that skipped the upload) is refused on every try: fail now.
      if (error instanceof InputRefusal) {
        await this.failJob(job.payload.jobId, `input file cannot be split: ${error.message}`, {
          code: 'unprocessable',
          message: `the file cannot be split: ${error.message}`,
        });
        return;
      }
      this.log.warn(
        `split of ${job.payload.jobId} failed (attempt ${job.attempt}): ${String(error)}`,
      );
      throw error;
    }
  }

  /**
   * Splits one job; returns the number of chunks the file has (0 if the job ended). After each
   * published batch the checkpoint (chunks and rows so far, always at a chunk boundary of the
   * reader) is committed. What a re-split publishes is decided by what was scored, not by what
   * was published (docs/batch.md, "Recovery"): with a durable bus it resumes at the checkpoint
   * (the chunks before it are still in Kafka), re-emitting at most the batch published but not
   * yet checkpointed; with a bus that lost its messages with the process, or for a stalled
   * job's `recovery`, it publishes every chunk not recorded as scored. Recorded chunks are
   * never published again.
   */
  async split(jobId: string, recovery = false): Promise<number> {
    const started = await this.lifecycle.start(jobId);
    if (!started) return 0;
    const { job, resumed } = started;
    const chunkRows = this.config.BATCH_CHUNK_ROWS;
    const finished = job.splitChunks > 0 && job.splitRows === job.totalRows;
    const republish =
      resumed &&
      (recovery || !this.bus.durable) &&
      !(finished && job.chunksDone >= job.splitChunks);
    // Resume at the checkpoint: a reader chunk boundary, or the end of a finished split (then
    // only the split report is sent again). One written with another BATCH_CHUNK_ROWS is not a
    // boundary of this reader: start over.
    const start =
      !republish && (finished || job.splitRows % chunkRows === 0)
        ? { chunks: job.splitChunks, rows: job.splitRows }
        : { chunks: 0, rows: 0 };
    const published =
      finished && !republish
        ? { ...start, sent: 0 }
        : await this.publishFrom(job, start, republish);
    if (!published) return 0;
    const { chunks, rows } = published;
    if (rows !== job.totalRows || chunks === 0) {
      // The upload changed under us: never assemble a wrong file.
      await this.failJob(jobId, `split found ${rows} rows, the upload counted ${job.totalRows}`, {
        code: 'internal_error',
        message: 'the uploaded file could not be read back as it was accepted',
      });
      return 0;
    }
    await this.bus.publish(this.names.progressTopic, [
      { key: jobId, value: encodeMessage({ v: 1, kind: 'split', jobId, chunks }) },
    ]);
    if (republish) {
      this.metrics?.batchRecoveries.inc({ outcome: 'republished' });
      this.log.log(
        `job ${jobId}: ${counted(published.sent, 'chunk')} not recorded as scored published again (${job.chunksDone} of ${chunks} recorded)`,
      );
    } else
      this.log.log(
        `job ${jobId}: ${counted(rows, 'row')} in ${counted(chunks, 'chunk')} published`,
      );
    return chunks;
  }

  /**
   * Publishes the upload's chunks from `start` on, committing the checkpoint after each batch,
   * and skipping chunks already recorded as scored (from `start` on; from the first chunk when
   * `republish`). Returns where the file ended and how many chunks were sent, or null when the
   * job ended meanwhile (or its upload is gone, which fails it).
   */
  private async publishFrom(
    job: SplitJob,
    start: { chunks: number; rows: number },
    republish: boolean,
  ): Promise<{ chunks: number; rows: number; sent: number } | null> {
    const { id: jobId, type, mode, uploadKey } = job;
    const layout = {
      fields: job.resultFields,
      lines: job.inputColumn !== null,
      smtp: job.smtpProbe,
    };
    const chunkRows = this.config.BATCH_CHUNK_ROWS;
    const recorded =
      start.chunks > 0 || republish
        ? await this.repository.recordedChunksFrom(jobId, start.chunks)
        : new Set<number>();
    let source;
    try {
      source = await this.blobs.get(uploadKey);
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      await this.failJob(jobId, 'the uploaded file is missing from the blob store', {
        code: 'internal_error',
        message: 'the uploaded file is no longer available',
      });
      return null;
    }
    if (start.rows > 0) this.log.log(`job ${jobId}: resuming split at chunk ${start.chunks}`);
    const partitions = this.config.KAFKA_CHUNK_PARTITIONS;
    let pending: OutgoingMessage[] = [];
    let pendingBytes = 0;
    let publishing: Promise<boolean> = Promise.resolve(true);
    let chunks = start.chunks;
    let rows = start.rows;
    let sent = 0;
    // The latest end of a reader chunk passed: the checkpoint the next published batch commits.
    let boundary: { chunks: number; rows: number } | null = null;
    for await (const { chunk, value } of sizedChunks(
      chunksOf(job, layout.lines, source, chunkRows, start.rows),
      MAX_CHUNK_BYTES,
      {
        encode: (c) => encodeChunk(jobId, type, c, mode, layout),
        size: (c) => encodedChunkLength(jobId, type, c, mode, layout),
      },
      start.chunks,
    )) {
      // A chunk the interrupted run published and a scorer already recorded is not re-sent.
      if (!recorded.has(chunk.chunkNo)) {
        pending.push({ key: jobId, partition: chunk.chunkNo % partitions, value });
        pendingBytes += value.length;
        sent++;
      }
      chunks++;
      rows += chunk.rows.length;
      // Checkpoint only where the reader's chunks end (a halved chunk ends at its last piece).
      if (rows % chunkRows === 0) boundary = { chunks, rows };
      // A batch goes out when full, wherever the reader is: the pieces of a chunk of wide rows
      // (10,000 rows of 4 KiB are 40 MB) never wait in memory for the chunk's end.
      if (pending.length >= PUBLISH_BATCH || pendingBytes >= PUBLISH_BATCH_BYTES) {
        // One batch in flight while the next is parsed; batches still go out in order.
        if (!(await publishing)) return null; // the job ended meanwhile
        publishing = this.publishChunks(jobId, pending, boundary);
        publishing.catch(() => undefined); // awaited (and thrown) before the next batch
        pending = [];
        pendingBytes = 0;
        boundary = null;
      }
    }
    if (!(await publishing)) return null;
    if (!(await this.publishChunks(jobId, pending, { chunks, rows }))) return null;
    return { chunks, rows, sent };
  }

  /**
   * Publishes a batch of chunks, then commits `checkpoint` (when the batch passed the end of a
   * reader chunk); false once the job ended (known at checkpoints).
   */
  private async publishChunks(
    jobId: string,
    batch: OutgoingMessage[],
    checkpoint: { chunks: number; rows: number } | null,
  ): Promise<boolean> {
    await this.bus.publish(this.names.chunksTopic, batch);
    if (!checkpoint) return true;
    return this.repository.saveSplitCheckpoint(jobId, checkpoint.chunks, checkpoint.rows);
  }

  private async giveUp(jobId: string, error: Error): Promise<void> {
    try {
      await this.failJob(jobId, `split failed ${SPLIT_ATTEMPTS} times: ${error.message}`, {
        code: 'internal_error',
        message: `the file could not be split after ${SPLIT_ATTEMPTS} attempts`,
      });
    } catch (failure) {
      this.log.error(`cannot fail job ${jobId}: ${String(failure)}`);
    }
  }

  private async failJob(jobId: string, reason: string, error: BatchJobError): Promise<void> {
    await this.lifecycle.fail(jobId, reason, error, () =>
      this.log.warn(`job ${jobId} failed: ${reason}`),
    );
  }
}
