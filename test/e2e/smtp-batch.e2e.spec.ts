// Mailbox verification at bulk scale against the loopback mail world (docs/models/email.md,
// "Test world"): a batch job with smtp=true on the embedded default, its answers compared with
// the world's ground truth, and the mail hosts' own counts of sessions.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  deliverabilityOf,
  hostFigures,
  MailWorld,
  parseScrape,
  standardWorld,
  startTestStack,
  total,
  worldFigures,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, postBatch, waitForJob } from './batch-helpers';
import { expectedSummary } from './batch-summary.fixtures';

const HOST_CAP = 3;

describe('SMTP probe at bulk scale (embedded engine, loopback mail world)', () => {
  let world: MailWorld;
  let stack: TestStack;

  before(async () => {
    world = await MailWorld.start(
      standardWorld({
        plainDomains: 6,
        perPlainDomain: 40,
        perSpecialDomain: 20,
        greylistMs: 1_500,
        tarpitMs: 30_000,
        limited: { maxConcurrent: 1, maxPerWindow: 12, windowMs: 60_000 },
      }),
    );
    stack = await startTestStack({
      env: {
        DNS_SERVERS: world.dnsServers,
        EMAIL_SMTP_PROBE: 'on',
        EMAIL_SMTP_PORT: String(world.port),
        EMAIL_SMTP_ALLOW_PRIVATE: 'true',
        EMAIL_SMTP_TIMEOUT_MS: '1000',
        EMAIL_SMTP_HOST_CONCURRENCY: String(HOST_CAP),
        EMAIL_SMTP_REFUSAL_BACKOFF_MS: '500',
        EMAIL_SMTP_RETRY_DELAY_MS: '1000',
        EMAIL_SMTP_RETRY_WINDOW_MS: '30000',
        EMAIL_SMTP_CANARY_DOMAIN: 'truth0-world.com',
        DNS_CANARY_DOMAINS: 'truth0-world.com',
        BATCH_CHUNK_ROWS: '100',
      },
      modules: [IngestModule, ScorerModule],
    });
  });
  after(async () => {
    await stack?.close();
    await world.stop();
  });

  it('answers a job as the world is: nothing that exists or cannot be known is undeliverable', async () => {
    const account = await stack.account(100_000);
    const rows = world.shuffled(50).map((a) => a.address);
    const created = await postBatch(stack.client, account.apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${rows.join('\n')}\n`],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const done = (await waitForJob(account.client, created.body.id as string, 180_000)).at(-1)!;
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    const csv = (await download(done.body.result_url as string)).text;
    const lines = csv.trimEnd().split('\n');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      rows,
      'one row per input row, in input order',
    );
    // Rows settled before a retry round are counted from their held lines, the rest as scored.
    assert.deepEqual(done.body.summary, expectedSummary('email', csv));

    const figures = worldFigures(world, deliverabilityOf(csv));
    assert.equal(figures.wronglyUndeliverable, 0, JSON.stringify(figures));
    assert.equal(figures.undeliverablePrecision, 1);
    assert.ok(figures.missingFound >= 0.99, JSON.stringify(figures));
    assert.ok(figures.existingConfirmed >= 0.99, JSON.stringify(figures));
    // Greylisted and connection-limited domains were answered within the job.
    assert.equal(figures.byBehaviour.greylist.unknown ?? 0, 0);
    assert.equal(figures.byBehaviour.limited.unknown ?? 0, 0);
    assert.ok((figures.byBehaviour.catch_all.risky ?? 0) > 0);

    const plain = hostFigures(world, 'truthful');
    assert.ok(plain.sessionsPer1000 <= 100, `${plain.sessionsPer1000} sessions per 1,000`);
    for (const [name, stats] of Object.entries(world.stats())) {
      assert.ok(stats.peakConcurrent <= HOST_CAP, `${name}: ${stats.peakConcurrent} at once`);
    }
    assert.ok(hostFigures(world, 'limited').refused421 > 0, 'the limited host was pushed');

    const scrape = parseScrape((await stack.client.get('/metrics')).body as string);
    assert.ok(total(scrape, 'verity_smtp_sessions_total', { outcome: 'served' }) > 0);
    assert.ok(total(scrape, 'verity_smtp_retries_total', { cause: 'temporary_failure' }) > 0);
    assert.ok(total(scrape, 'verity_smtp_refusals_total', { stage: 'session' }) > 0);
  });

  it('answers a single call at once, with the SMTP evidence in explain', async () => {
    const { client } = await stack.account(100);
    const missing = world.addresses.find(
      (a) => a.behaviour === 'truthful' && a.truth === 'missing',
    )!;
    const first = await client.post('/v1/email/validate?explain=true', { email: missing.address });
    assert.equal(first.status, 200);
    assert.equal(first.body.deliverability, 'undeliverable');
    assert.equal(first.body.mailbox.checked, true, JSON.stringify(first.body));
    assert.equal(first.body.mailbox.reply_code, 550);
    assert.equal(first.body.mailbox.enhanced_status, '5.1.1');
    assert.equal(first.body.mailbox.host, world.mxOf.get(missing.domain));
    const plain = await client.post('/v1/email/validate', { email: missing.address });
    assert.equal(plain.body.mailbox, undefined, 'the default shape is unchanged');

    const grey = world.addresses.find((a) => a.behaviour === 'greylist' && a.truth === 'exists')!;
    const fresh = `z${grey.address}`;
    const asked = await client.post('/v1/email/validate?explain=true', { email: fresh });
    assert.equal(asked.body.deliverability, 'unknown');
    assert.equal(asked.body.mailbox.reason, 'temporary_failure');
    assert.match(asked.body.mailbox.detail, /later call asks again/);
  });

  it('refuses smtp on a phone job and a value it cannot read', async () => {
    const { apiKey } = await stack.account(100);
    const phone = await postBatch(stack.client, apiKey, [
      ['type', 'phone'],
      ['smtp', 'true'],
      ['file', '+14155550100\n'],
    ]);
    assert.equal(phone.status, 400);
    assert.match(phone.body.error.message, /email jobs only/);
    const odd = await postBatch(stack.client, apiKey, [
      ['type', 'email'],
      ['smtp', 'yes'],
      ['file', 'a@b.com\n'],
    ]);
    assert.equal(odd.status, 400);
    assert.equal(odd.body.error.message, 'smtp must be true or false');
  });

  it('shows outbound SMTP in /readyz without deciding readiness', async () => {
    const ready = await stack.client.get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks.smtp_outbound.required, false);
    assert.equal(ready.body.checks.smtp_outbound.detail.state, 'open');
  });
});

describe('SMTP probe off (the default)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startTestStack({ modules: [IngestModule, ScorerModule] });
  });
  after(() => stack?.close());

  it('refuses smtp=true, and explain says the mailbox was not checked', async () => {
    const { apiKey, client } = await stack.account(100);
    const refused = await postBatch(stack.client, apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', 'a@example.com\n'],
    ]);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /SMTP probe is off/);
    const explained = await client.post('/v1/email/validate?explain=true', {
      email: 'jane@example.com',
    });
    assert.equal(explained.body.mailbox.checked, false);
    assert.equal(explained.body.mailbox.reason, 'probe_off');
    assert.match(explained.body.mailbox.detail, /mailbox was not checked/);
  });
});
