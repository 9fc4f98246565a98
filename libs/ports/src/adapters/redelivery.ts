import { setTimeout as sleep } from 'node:timers/promises';
import { infraOutageOf, jitteredBackoffMs } from '@verity/common';
import type { BusMessage, MessageHandler } from '../ports/row-bus.port';

/** First redelivery delay after a rejected handler; doubles up to {@link REDELIVERY_MAX_MS}. */
export const REDELIVERY_BASE_MS = 100;
export const REDELIVERY_MAX_MS = 5_000;

/** Delay before redelivery `attempt + 1`; many consumers waiting out one outage are spread (full jitter). */
function redeliveryDelayMs(error: unknown, attempt: number): number {
  return infraOutageOf(error) === null
    ? Math.min(REDELIVERY_BASE_MS * 2 ** (attempt - 1), REDELIVERY_MAX_MS)
    : jitteredBackoffMs(attempt, REDELIVERY_BASE_MS, REDELIVERY_MAX_MS);
}

/**
 * Runs `handler` on `msg` until it resolves, redelivering after a rejection with exponential
 * backoff (with full jitter when the rejection is an infrastructure outage). Both RowBus adapters share it so they redeliver the same way: in place, keeping the
 * partition's order, without tearing down the fetch loop. Returns false if `signal` aborted
 * (consumer stopping or partition revoked) before the handler succeeded: the message is then
 * left uncommitted for the partition's next owner. `beforeRetry` may throw to give up too
 * (Kafka: the heartbeat tells us the group is rebalancing).
 */
export async function deliverUntilHandled(
  handler: MessageHandler,
  msg: BusMessage,
  signal: AbortSignal,
  onError: (err: unknown, attempt: number) => void,
  beforeRetry?: () => Promise<void>,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    let delay: number;
    try {
      await handler(msg);
      return true;
    } catch (err) {
      onError(err, attempt);
      delay = redeliveryDelayMs(err, attempt);
    }
    if (signal.aborted) return false;
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return false;
    }
    if (beforeRetry) await beforeRetry();
  }
}

/** FNV-1a 32-bit: a stable key → partition hash for the in-process bus. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
