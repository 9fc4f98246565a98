import RequestQueue from 'kafkajs/src/network/requestQueue';

/** kafkajs's own retry delay for throttled pending requests (CHECK_PENDING_REQUESTS_INTERVAL). */
const PENDING_CHECK_MS = 10;

/**
 * How often a connection looks for requests past their timeout: kafkajs checks every 100 ms on
 * every connection, so a worker's half-dozen idle connections woke it ~60 times a second.
 * Timeouts are tens of seconds (30 s, fetches maxWait + 30 s); noticing one up to 1 s late
 * changes nothing.
 */
export const REQUEST_TIMEOUT_CHECK_MS = 1_000;

/**
 * Makes kafkajs (2.2.4) connections quiet while idle; applied to its RequestQueue class, so
 * every client created afterwards or before gets it. Idempotent.
 *
 * - kafkajs 2.2.4 keeps every broker connection in a timer loop while idle: after each response,
 * `scheduleCheckPendingRequests` arms `setTimeout(check, throttledUntil - now)` even when no
 * request is pending, and with no throttle the delay is negative (1 ms), so each connection
 * wakes its process ~1,000 times a second and an idle ingest or scorer burnt 5–7 % of a core
 * (upstream tulios/kafkajs#1556, fix proposed in #1667, unreleased). Replaced by the
 * upstream fix: a check is scheduled only while requests wait in `pending`. Nothing is lost:
 * `push` schedules a check when it queues a request, and a fulfilled or timed-out request runs
 * `checkPendingRequests` itself.
 * - The request-timeout sweep runs every {@link REQUEST_TIMEOUT_CHECK_MS} instead of 100 ms
 *   (kafkajs's loop otherwise unchanged).
 */
export function installKafkaIdleFix(): void {
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.throttleCheckTimeoutId !== null || this.pending.length === 0) return;
    const throttled = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttled > 0 ? throttled : PENDING_CHECK_MS,
    );
  };
  RequestQueue.prototype.scheduleRequestTimeoutCheck = function (this: RequestQueue) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this.requestTimeoutIntervalId = setInterval(
      () => {
        const now = Date.now();
        this.inflight.forEach((request) => {
          if (request.sentAt !== null && now - request.sentAt > request.requestTimeout)
            request.timeoutRequest();
        });
        if (!this.isConnected()) this.destroy();
      },
      Math.min(this.requestTimeout, REQUEST_TIMEOUT_CHECK_MS),
    );
  };
}
