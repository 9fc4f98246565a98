import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_SIGNATURE_HEADER, WebhookDeliveryRepository, verifyWebhook } from '@verity/batch';
import {
  CONSOLE_PASSWORD,
  ConsoleClient,
  consoleUser,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { eventually, postBatch } from './batch-helpers';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

describe('console webhooks: test events, resends and the target URL', () => {
  let stack: TestStack;
  let receiver: Server;
  const received: Received[] = [];
  const hookUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_BASE_MS: '100',
      },
      modules: [IngestModule, ScorerModule],
    });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await stack.close();
  });

  /** Asserts the delivery is signed with the account's secret, as every webhook is. */
  async function assertSigned(browser: ConsoleClient, delivery: Received): Promise<void> {
    const { secret } = (await browser.post('/webhooks/secret/reveal')).body;
    const signature = delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    const now = Math.floor(Date.now() / 1000);
    assert.equal(verifyWebhook(signature, delivery.body, secret, 300, now), 'ok');
    assert.equal(verifyWebhook(signature, `${delivery.body} `, secret, 300, now), 'invalid');
  }

  it('sends a signed test event through the webhook sender and lists it with its URL', async () => {
    const { browser } = await consoleUser(stack, 10, 'test-event@hooks.test');
    const sent = await browser.post('/webhooks/test', { url: hookUrl() });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.job_id, null);
    assert.equal(sent.body.url, hookUrl());
    assert.equal(sent.body.status_code, 204);
    assert.equal(sent.body.error, null);
    const delivery = received.at(-1)!;
    const event = JSON.parse(delivery.body);
    assert.deepEqual(Object.keys(event).sort(), ['created_at', 'id', 'test']);
    assert.equal(event.test, true);
    assert.match(event.id, /^test_[0-9a-f]{32}$/);
    assert.equal(delivery.headers['verity-delivery'], `${event.id}.1`);
    assert.equal(delivery.headers['user-agent'], 'Verity-Webhooks/1');
    await assertSigned(browser, delivery);
    const list = await browser.get('/webhooks');
    assert.deepEqual(
      list.body.data.map((d: any) => [d.id, d.job_id, d.url, d.attempt, d.status_code]),
      [[sent.body.id, null, hookUrl(), 1, 204]],
    );
    // A test event is not a job's webhook: nothing to queue again.
    const again = await browser.post(`/webhooks/deliveries/${sent.body.id}/resend`);
    assert.equal(again.status, 400);
    assert.match(again.body.error.message, /send a new one/);
    const bad = await browser.post('/webhooks/test', { url: 'ftp://example.com/hook' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /http or https/);
  });

  it('resends a job webhook through the queue as its next attempt, signed the same way', async () => {
    const { browser, accountId, apiKey } = await consoleUser(stack, 10, 'resend@hooks.test');
    const created = await postBatch(stack.client, apiKey, [
      ['webhook_url', hookUrl()],
      ['type', 'email'],
      ['file', 'jane.doe@example.com\n'],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const jobId = created.body.id as string;
    const deliveriesOf = (attempt: number) =>
      received.find((r) => r.headers['verity-delivery'] === `${jobId}.${attempt}`);
    const first = await eventually(() => Promise.resolve(deliveriesOf(1)), 'the first delivery');
    const listed = await eventually(async () => {
      const data = (await browser.get('/webhooks')).body.data as any[];
      return data.length > 0 ? data : undefined;
    }, 'the first attempt listed');
    assert.deepEqual(
      listed.map((d) => [d.job_id, d.url, d.attempt, d.status_code]),
      [[jobId, hookUrl(), 1, 204]],
    );

    const resent = await browser.post(`/webhooks/deliveries/${listed[0].id}/resend`);
    assert.equal(resent.status, 202, JSON.stringify(resent.body));
    assert.deepEqual(resent.body, { job_id: jobId, attempt: 2 });
    const second = await eventually(() => Promise.resolve(deliveriesOf(2)), 'the resent delivery');
    assert.equal(JSON.parse(second.body).id, jobId);
    assert.equal(JSON.parse(second.body).status, JSON.parse(first.body).status);
    await assertSigned(browser, second);
    const after = await eventually(async () => {
      const data = (await browser.get('/webhooks')).body.data as any[];
      return data.length === 2 ? data : undefined;
    }, 'the resent attempt listed');
    assert.deepEqual(
      after.map((d) => [d.job_id, d.url, d.attempt, d.status_code]),
      [
        [jobId, hookUrl(), 2, 204],
        [jobId, hookUrl(), 1, 204],
      ],
    );

    // While the queue still retries a webhook, a resend is refused rather than numbered twice.
    await stack.app.get(WebhookDeliveryRepository).record({
      accountId,
      jobId,
      url: hookUrl(),
      attempt: 3,
      statusCode: 500,
      error: 'webhook answered HTTP 500',
      nextRetryAt: new Date(Date.now() + 3_600_000),
    });
    const retrying = await browser.post(`/webhooks/deliveries/${listed[0].id}/resend`);
    assert.equal(retrying.status, 422);
    assert.match(retrying.body.error.message, /still being retried .*resend it after that/);

    // Another account cannot resend it; an unknown id is not found either.
    const stranger = await consoleUser(stack, 10, 'stranger@hooks.test');
    assert.equal(
      (await stranger.browser.post(`/webhooks/deliveries/${listed[0].id}/resend`)).status,
      404,
    );
    assert.equal((await browser.post('/webhooks/deliveries/not-an-id/resend')).status, 404);
  });

  it('refuses a loopback test URL where private targets are off, naming WEBHOOK_ALLOW_PRIVATE', async () => {
    await consoleUser(stack, 10, 'strict@hooks.test');
    const strict = await startTestStack({ database: stack.database });
    try {
      const browser = new ConsoleClient(strict.client.baseUrl);
      assert.equal((await browser.login('strict@hooks.test', CONSOLE_PASSWORD)).status, 200);
      const before = received.length;
      const refused = await browser.post('/webhooks/test', { url: hookUrl() });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, 'validation_error');
      assert.match(refused.body.error.message, /loopback address: .*WEBHOOK_ALLOW_PRIVATE=true/);
      assert.equal(received.length, before, 'nothing was sent');
      assert.deepEqual((await browser.get('/webhooks')).body.data, []);
    } finally {
      await strict.close();
    }
  });

  it('limits test events and resends per account: CONSOLE_TEST_EVENTS_PER_MINUTE, then 429', async () => {
    const { browser } = await consoleUser(stack, 10, 'flood@hooks.test');
    const before = received.length;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await browser.post('/webhooks/test', { url: hookUrl() })).status);
    assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429, 429]);
    assert.equal(received.length - before, 10, 'the refused events were not sent');
    const listed = (await browser.get('/webhooks')).body.data as { id: string }[];
    const resend = await browser.post(`/webhooks/deliveries/${listed[0].id}/resend`);
    assert.equal(resend.status, 429);
    assert.equal(resend.body.error.code, 'rate_limited');
    assert.ok(Number(resend.headers.get('retry-after')) >= 1);
    // Another account has its own budget.
    const other = await consoleUser(stack, 10, 'calm@hooks.test');
    assert.equal((await other.browser.post('/webhooks/test', { url: hookUrl() })).status, 200);
  });
});
