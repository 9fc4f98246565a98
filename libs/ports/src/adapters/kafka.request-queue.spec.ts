import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import RequestQueue from 'kafkajs/src/network/requestQueue';
import { installKafkaIdleFix, REQUEST_TIMEOUT_CHECK_MS } from './kafka.request-queue';

const silent = { debug: () => undefined, warn: () => undefined };
const queue = (enforceRequestTimeout = false) =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout,
    clientId: 'spec',
    broker: '127.0.0.1:1',
    logger: silent,
  });

describe('installKafkaIdleFix', () => {
  it('schedules no timer when nothing is pending (kafkajs 2.2.4 armed one after every response)', () => {
    installKafkaIdleFix();
    const q = queue();
    q.checkPendingRequests(); // what every fulfilled request runs
    assert.equal(q.throttleCheckTimeoutId, null);
    q.destroy();
  });

  it('still schedules a check while requests wait behind a throttle', () => {
    installKafkaIdleFix();
    const q = queue();
    q.pending.push({}); // a queued request; only the queue's length matters here
    q.throttledUntil = Date.now() + 60_000;
    q.scheduleCheckPendingRequests();
    assert.notEqual(q.throttleCheckTimeoutId, null);
    q.pending.length = 0;
    q.destroy();
  });

  it('times out requests past their deadline, sweeping once a second instead of every 100 ms', () => {
    installKafkaIdleFix();
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const q = queue(true);
      let timedOut = 0;
      const request = {
        sentAt: Date.now() - 60_000,
        requestTimeout: 30_000,
        timeoutRequest: () => timedOut++,
      };
      const fresh = {
        sentAt: Date.now(),
        requestTimeout: 30_000,
        timeoutRequest: () => timedOut++,
      };
      q.inflight.set(1, request);
      q.inflight.set(2, fresh);
      q.scheduleRequestTimeoutCheck();
      mock.timers.tick(REQUEST_TIMEOUT_CHECK_MS - 1);
      assert.equal(timedOut, 0);
      mock.timers.tick(1);
      assert.equal(timedOut, 1); // the overdue one only
      q.destroy();
    } finally {
      mock.timers.reset();
    }
  });
});
