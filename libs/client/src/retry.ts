// The API's retry advice for 429: wait 1 s, 2 s, 4 s, then stop after 3 retries. The same
// schedule serves a 503 with Retry-After and (for idempotent requests) broken connections.

/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 3;

const FIRST_WAIT_MS = 1_000;

/**
 * How long to wait before retry number `retry` (0-based): 1 s, 2 s, 4 s, ... or the server's
 * `Retry-After` when that is longer, so a client never comes back before it was told to.
 */
export function retryDelayMs(retry: number, retryAfterSeconds: number | null): number {
  const backoff = FIRST_WAIT_MS * 2 ** retry;
  return retryAfterSeconds === null ? backoff : Math.max(backoff, retryAfterSeconds * 1_000);
}

/** `Retry-After` as seconds: the delta form, or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  // An HTTP date names its day and month (`Thu, 01 Jan 2026 00:00:05 GMT`).
  if (!/[A-Za-z]{3}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1_000));
}

/** Why a request is being retried, as reported to `onRetry`. */
export interface RetryEvent {
  method: string;
  path: string;
  /** 1 for the first retry. */
  retry: number;
  waitMs: number;
  /** `status` for a 429/503 answer, `network` for a broken connection. */
  reason: { kind: 'status'; status: number; code: string } | { kind: 'network'; message: string };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
