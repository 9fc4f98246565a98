import { randomBytes } from 'node:crypto';

/** The body of a test event: no job has a `test` field, so a receiver can tell it apart. */
export interface WebhookTestEvent {
  id: string;
  test: true;
  created_at: string;
}

/** A new test event (docs/batch.md, "Test events"). */
export function webhookTestEvent(now = new Date()): WebhookTestEvent {
  return {
    id: `test_${randomBytes(16).toString('hex')}`,
    test: true,
    created_at: now.toISOString(),
  };
}
