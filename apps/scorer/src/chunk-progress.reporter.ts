import type { ChunkMessage } from '@verity/batch';

/** How often a chunk being scored reports its running count (docs/batch.md, "Progress"). */
export const PROGRESS_INTERVAL_MS = 1_000;

/** Rows of a chunk scored so far: the scorer counts, the reporter reads. */
export interface ScoredRows {
  rows: number;
}

/**
 * Reports a chunk's running count of scored rows while it is scored: a timer per chunk reads
 * the counter and sends the count when it moved, at most once per interval and one report at
 * a time, so the cost is per chunk and per second, never per row. The last rows need no
 * report: the chunk's completion says them. A report that cannot be sent is dropped (the next
 * one, or the completion, carries the count).
 */
export class ChunkProgressReporter {
  readonly scored: ScoredRows = { rows: 0 };
  private reported = 0;
  private sending = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly chunk: ChunkMessage,
    private readonly send: (rows: number) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    intervalMs = PROGRESS_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => this.report(), intervalMs);
    this.timer.unref();
  }

  /** Ends the reports (the chunk is scored or failed). */
  stop(): void {
    clearInterval(this.timer);
  }

  private report(): void {
    const rows = this.scored.rows;
    if (this.sending || rows === this.reported || rows >= this.chunk.rows.length) return;
    this.sending = true;
    this.reported = rows;
    this.send(rows)
      .catch(this.onError)
      .finally(() => (this.sending = false));
  }
}
