import type { Logger } from 'pino';
import { VerifyCallRepository, encodeCallRow, type CallRow } from '../db/verify-call.repository';

/** When the call log writes: whichever of these comes first. */
export interface CallLogPolicy {
  /** Rows per statement, and the buffer size that triggers a write. */
  batchRows: number;
  /** The longest a row waits to be written. */
  flushMs: number;
  /** Rows held while the database cannot take them; the oldest are dropped beyond. */
  maxBufferedRows: number;
}

/**
 * 250 rows a statement: at most 4 statements per 1,000 calls however busy, and each insert a
 * few milliseconds of PostgreSQL's time (a 1,000-row insert took about 12 ms, a burst the
 * calls sharing its machine felt at their p99).
 */
export const CALL_LOG_POLICY: CallLogPolicy = {
  batchRows: 250,
  flushMs: 1_000,
  maxBufferedRows: 100_000,
};

/**
 * Writes verify calls to verify_calls in batches: one INSERT per second or per 250 calls,
 * whichever comes first, so the hot path sends no statement of its own (docs/history.md,
 * "Cost"). Until written, a call's values are found by request_id in the history store. A
 * database outage keeps rows buffered (bounded) and retries at the next tick.
 */
export class CallLog {
  /** Calls waiting, each encoded (encodeCallRow). */
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private dropped = 0;

  constructor(
    private readonly calls: VerifyCallRepository,
    private readonly logger: Logger | null,
    private readonly policy: CallLogPolicy = CALL_LOG_POLICY,
  ) {}

  add(row: CallRow): void {
    this.buffer.push(encodeCallRow(row));
    if (this.buffer.length > this.policy.maxBufferedRows) {
      this.buffer.shift();
      this.dropped++;
    }
    if (this.buffer.length >= this.policy.batchRows) void this.flush(false);
    else this.schedule();
  }

  /**
   * Writes what is buffered, a batch per statement: every row (`all`, when the wait is over),
   * or only full batches (a busy log never writes a few rows at a time). Resolves when written
   * or kept for the next try.
   */
  flush(all = true): Promise<void> {
    this.flushing ??= this.write(all).finally(() => {
      this.flushing = null;
      if (this.buffer.length > 0) this.schedule();
    });
    return this.flushing;
  }

  /** Writes what is left, once; for shutdown. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush(true);
    }, this.policy.flushMs).unref();
  }

  private async write(all: boolean): Promise<void> {
    if (all && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // Every row there is now when the wait is over (not those arriving meanwhile), else full batches.
    let due = all ? this.buffer.length : 0;
    while (due > 0 || this.buffer.length >= this.policy.batchRows) {
      const batch = this.buffer.slice(0, this.policy.batchRows);
      try {
        await this.calls.insertBatch(batch);
      } catch (error) {
        this.logger?.warn(
          { err: error, buffered: this.buffer.length },
          'verify call log: the database did not take the calls; kept for the next try',
        );
        return;
      }
      this.buffer.splice(0, batch.length);
      due -= batch.length;
    }
    if (this.dropped > 0) {
      this.logger?.warn(
        { dropped: this.dropped },
        'verify call log: calls dropped while the database was unreachable (their request_id cannot be reported)',
      );
      this.dropped = 0;
    }
  }
}
