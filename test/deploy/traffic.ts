// The traffic the Prometheus tests drive before evaluating queries: single calls, a 503 that
// names its dependency, a 402, a 429 and a small batch job, on any running API.
import assert from 'node:assert/strict';
import type { TestClient } from '@verity/testing';
import { postBatch, waitForJob } from '../e2e/batch-helpers';

/** Keyed clients of three accounts: one with credits, one with none, one for a burst. */
export interface TrafficAccounts {
  readonly paying: TestClient;
  readonly payingKey: string;
  readonly broke: TestClient;
  readonly burst: TestClient;
}

/**
 * Drives every kind of answer the dashboard charts. The API must run with a low rate limit
 * (`ratePerSecond`), so `burst + 20` parallel pings get 429s; the job is polled below that rate.
 */
export async function driveTraffic(
  accounts: TrafficAccounts,
  limits: { burst: number; ratePerSecond: number },
): Promise<void> {
  const { paying, broke, burst } = accounts;
  for (const email of ['a@example.com', 'b@nomx.example'])
    assert.equal((await paying.post('/v1/email/validate', { email })).status, 200);
  assert.equal((await paying.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
  const hlr = await paying.post('/v1/phone/validate', { phone: '+447400123456', hlr: true });
  assert.equal(hlr.status, 503, 'HLR is not configured: a 503 naming its dependency');
  assert.equal((await broke.post('/v1/email/validate', { email: 'a@example.com' })).status, 402);
  const pings = await Promise.all(
    Array.from({ length: limits.burst + 20 }, () => burst.get('/v1/ping')),
  );
  assert.ok(
    pings.some((r) => r.status === 429),
    'a burst over the limit is refused with 429',
  );
  const created = await postBatch(paying, accounts.payingKey, [
    ['type', 'email'],
    ['file', 'a@example.com\nb@example.com\nc@nomx.example\n'],
  ]);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const interval = Math.ceil(1000 / limits.ratePerSecond) + 100;
  const done = (await waitForJob(paying, created.body.id, 120_000, interval)).at(-1)!.body;
  assert.equal(done.status, 'done');
}
