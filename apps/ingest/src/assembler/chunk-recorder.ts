import type { BatchJobRecord, ChunkCompletion } from '@verity/batch';

/** Records chunk completions in bulk; see BatchJobRepository.recordChunks. */
export type RecordChunks = (
  chunks: readonly ChunkCompletion[],
) => Promise<Map<string, BatchJobRecord | null>>;

interface Waiting {
  chunk: ChunkCompletion;
  resolve: (job: BatchJobRecord | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for chunk completions. The assembler handles one report per partition at once;
 * they all update the same job row, so one statement each would queue them on that row's lock
 * and pay one synchronous commit each. Instead, a completion that arrives while a statement
 * is running waits for the next one, which records every completion that arrived meanwhile.
 * Each caller still resolves only after its chunk is committed, so its Kafka offset is
 * committed after the database, as before.
 */
export class ChunkRecorder {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly recordChunks: RecordChunks,
    private readonly maxBatch = 256,
  ) {}

  /** Records one completion; resolves with the job after the statement (null unless processing). */
  record(chunk: ChunkCompletion): Promise<BatchJobRecord | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ chunk, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        try {
          const jobs = await this.recordChunks(batch.map((w) => w.chunk));
          for (const w of batch) w.resolve(jobs.get(w.chunk.jobId) ?? null);
        } catch (error) {
          // The statement is atomic: nothing of this batch was recorded; each report is redelivered.
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
