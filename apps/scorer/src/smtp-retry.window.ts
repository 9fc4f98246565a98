import { setTimeout as sleep } from 'node:timers/promises';
import {
  encodeMessage,
  partsPrefix,
  type BatchNames,
  type ChunkMessage,
  type ChunkWire,
  type JobLifecycle,
} from '@verity/batch';
import { cappedBackoffMs } from '@verity/common';
import type { SmtpConfig, BatchConfig } from '@verity/config';
import { BlobNotFoundError, type BlobStore, type RowBus } from '@verity/ports';
import type { ProbedLines } from './chunk.scorer';

/** When a chunk's next round runs, and when its window closes (epoch ms). */
export type ChunkRetry = NonNullable<ChunkMessage['retry']>;

/** The settings the rounds follow. */
export type RoundSettings = Pick<
  SmtpConfig,
  'EMAIL_SMTP_RETRY_WINDOW_MS' | 'EMAIL_SMTP_RETRY_DELAY_MS'
> &
  Pick<BatchConfig, 'BATCH_STALL_MS'>;

/**
 * The round after `retry` (the first pass when undefined): EMAIL_SMTP_RETRY_DELAY_MS later,
 * doubling per round, the last one at the window's end; null once the window is over (or 0).
 * A wait never reaches half of BATCH_STALL_MS, so the stall sweep sees the job move.
 */
export function nextRound(
  settings: RoundSettings,
  retry: ChunkRetry | undefined,
  now: number,
): ChunkRetry | null {
  const windowMs = settings.EMAIL_SMTP_RETRY_WINDOW_MS;
  if (windowMs === 0) return null;
  const round = (retry?.round ?? 0) + 1;
  const until = retry?.until ?? now + windowMs;
  if (now >= until) return null;
  const cap = Math.max(1, Math.floor(settings.BATCH_STALL_MS / 2));
  const delay = cappedBackoffMs(round, settings.EMAIL_SMTP_RETRY_DELAY_MS, cap);
  return { round, notBefore: now + Math.min(delay, until - now), until };
}

/** Where a held chunk's settled lines wait for its next round (deleted with the job's parts). */
export function heldKey(jobId: string, chunkNo: number): string {
  return `${partsPrefix(jobId)}held/${String(chunkNo).padStart(8, '0')}.json`;
}

/**
 * The SMTP retry window (docs/models/email.md, "Retry window"): the one place that holds a
 * batch job for mail servers' temporary answers (greylisting, rate limits). A chunk whose
 * rows got one is not finished: its settled lines are stored, a copy of its message goes to
 * the chunk-retries topic for the next round (the scorers' consumer of that topic waits for
 * the round's time when it reaches it, so a wait delays only other retries, never the chunks
 * topic), and the job is marked as waiting on purpose so the stall sweep leaves it alone.
 * Rounds come after EMAIL_SMTP_RETRY_DELAY_MS, doubling, until EMAIL_SMTP_RETRY_WINDOW_MS
 * after the chunk's first pass; the last round's temporary answers are written as `unknown`.
 * A job therefore ends at most the window after the first pass of its last such chunk, and as
 * soon as the servers accept (typically one round).
 */
export class SmtpRetryWindow {
  constructor(
    private readonly config: RoundSettings & Pick<BatchConfig, 'KAFKA_CHUNK_PARTITIONS'>,
    private readonly lifecycle: JobLifecycle,
    private readonly blobs: BlobStore,
    private readonly bus: RowBus,
    private readonly names: BatchNames,
  ) {}

  /** The chunk's next round, or null when its window is over (or off). */
  nextRound(chunk: ChunkMessage, now = Date.now()): ChunkRetry | null {
    return nextRound(this.config, chunk.retry, now);
  }

  /**
   * Holds the chunk for `next`: settled lines stored, the copy published (on partition
   * chunkNo mod P, as the splitter spreads chunks, so every scorer takes its share of the
   * waits), the job marked waiting.
   */
  async hold(chunk: ChunkMessage, probed: ProbedLines, next: ChunkRetry): Promise<void> {
    const held = probed.lines.map((line, i) => (probed.retryable[i] ? null : line));
    await this.blobs.put(heldKey(chunk.jobId, chunk.chunkNo), Buffer.from(JSON.stringify(held)));
    await this.bus.publish(this.names.chunkRetriesTopic, [
      {
        key: `${chunk.jobId}/${chunk.chunkNo}`,
        partition: chunk.chunkNo % this.config.KAFKA_CHUNK_PARTITIONS,
        value: retryCopy(chunk, next),
      },
    ]);
    await this.lifecycle.wait(chunk.jobId);
  }

  /**
   * A retry copy's settled lines, once its round's time has come (the wait ends early when
   * `signal` aborts); null when none are kept (another copy finished the chunk): the chunk is
   * then scored whole, its settled rows mostly from the answer cache.
   */
  async resume(chunk: ChunkMessage, signal: AbortSignal): Promise<(string | null)[] | null> {
    const wait = (chunk.retry?.notBefore ?? 0) - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal });
    let text: string;
    try {
      text = await readAll(await this.blobs.get(heldKey(chunk.jobId, chunk.chunkNo)));
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
    const held: unknown = JSON.parse(text);
    const fits =
      Array.isArray(held) &&
      held.length === chunk.rows.length &&
      held.every((line) => line === null || typeof line === 'string');
    return fits ? (held as (string | null)[]) : null;
  }

  /** The chunk's part is stored: its held lines are no longer needed. */
  async release(chunk: ChunkMessage): Promise<void> {
    if (chunk.retry !== undefined) await this.blobs.delete(heldKey(chunk.jobId, chunk.chunkNo));
  }
}

/** The chunk's message again, with its next round (rows last, as decodeChunk reads it). */
function retryCopy(chunk: ChunkMessage, retry: ChunkRetry): Buffer {
  const { lines, rows, ...head } = chunk;
  const wire: ChunkWire = {
    ...head,
    ...(lines !== undefined && { layout: 'lines' as const }),
    retry,
    rows: lines === undefined ? rows : rows.flatMap((row, i) => [row, lines[i]]),
  };
  return encodeMessage(wire);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const piece of stream) chunks.push(Buffer.from(piece as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
