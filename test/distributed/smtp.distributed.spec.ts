// The SMTP probe with two scorers on Kafka (docs/models/email.md, "Politeness"): both ask the
// same loopback mail hosts, their caps held together through the Redis limiter, and the job's
// answers compared with the world's ground truth.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  deliverabilityOf,
  hostFigures,
  MailWorld,
  standardWorld,
  worldFigures,
} from '@verity/testing';
import { download, postBatch, waitForJob } from '../e2e/batch-helpers';
import { distributedSuite, startCluster, type Cluster } from './cluster';

const HOST_CAP = 2;

distributedSuite('SMTP probe, distributed (api, ingest, 2 scorers, one Redis limiter)', () => {
  let world: MailWorld;
  let cluster: Cluster;

  before(async () => {
    world = await MailWorld.start(
      standardWorld({
        plainDomains: 12,
        perPlainDomain: 60,
        perSpecialDomain: 30,
        greylistMs: 2_000,
        tarpitMs: 30_000,
        limited: { maxConcurrent: 1, maxPerWindow: 30, windowMs: 60_000 },
      }),
    );
    cluster = await startCluster('smtp', {
      credits: 10 * world.addresses.length,
      env: {
        DNS_SERVERS: world.dnsServers,
        EMAIL_SMTP_PROBE: 'per_job',
        EMAIL_SMTP_PORT: String(world.port),
        EMAIL_SMTP_ALLOW_PRIVATE: 'true',
        EMAIL_SMTP_TIMEOUT_MS: '1000',
        EMAIL_SMTP_HOST_CONCURRENCY: String(HOST_CAP),
        EMAIL_SMTP_REFUSAL_BACKOFF_MS: '500',
        EMAIL_SMTP_RETRY_DELAY_MS: '1000',
        EMAIL_SMTP_RETRY_WINDOW_MS: '30000',
        EMAIL_SMTP_CANARY_DOMAIN: '',
        DNS_CANARY_DOMAINS: 'truth0-world.com',
        BATCH_CHUNK_ROWS: '100',
        BATCH_SCORER_CONCURRENCY: '2',
      },
    });
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
  });
  after(async () => {
    await cluster?.close();
    await world?.stop();
  });

  it('answers as the world is, in input order, with no host ever above its cap', async () => {
    const rows = world.shuffled(51).map((a) => a.address);
    const created = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${rows.join('\n')}\n`],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const done = (await waitForJob(cluster.client, created.body.id, 240_000)).at(-1)!.body;
    assert.equal(done.status, 'done', JSON.stringify(done));
    const csv = (await download(done.result_url)).text;
    assert.deepEqual(
      csv
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
      rows,
    );
    const figures = worldFigures(world, deliverabilityOf(csv));
    assert.equal(figures.wronglyUndeliverable, 0, JSON.stringify(figures));
    assert.ok(figures.missingFound >= 0.99, JSON.stringify(figures));
    assert.ok(figures.existingConfirmed >= 0.99, JSON.stringify(figures));
    for (const [name, stats] of Object.entries(world.stats())) {
      assert.ok(stats.peakConcurrent <= HOST_CAP, `${name}: ${stats.peakConcurrent} at once`);
    }
    assert.ok(hostFigures(world, 'truthful').sessionsPer1000 <= 100);
  });
});
