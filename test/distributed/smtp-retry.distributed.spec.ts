// The SMTP retry window on Kafka with two scorers (docs/models/email.md, "Retry window"): a
// job whose chunks wait for their rounds on a greylisting host does not hold up another
// account's job; a scorer killed during the waits leaves its retry copies uncommitted, the
// other scorer takes them over, and the held job finishes with the world's answers.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  assertWorldAnswers,
  HELD_JOB_HOSTS,
  heldJobRows,
  heldJobWorld,
  MailWorld,
} from '@verity/testing';
import { download, eventually, postBatch, waitForJob } from '../e2e/batch-helpers';
import { createAccount, distributedSuite, startCluster, type Cluster } from './cluster';

/** Addresses the scorers sent to another round of the retry window, as their /metrics say. */
async function retried(cluster: Cluster): Promise<number> {
  let sum = 0;
  for (const scorer of cluster.scorers) {
    const text = await (await fetch(`http://127.0.0.1:${scorer.port}/metrics`)).text();
    for (const m of text.matchAll(/^verity_smtp_retries_total\{[^}]*\} (\S+)$/gm)) {
      sum += Number(m[1]);
    }
  }
  return sum;
}

distributedSuite('SMTP retry window, distributed (api, ingest, 2 scorers on Kafka)', () => {
  let world: MailWorld;
  let cluster: Cluster;

  before(async () => {
    world = await MailWorld.start(heldJobWorld());
    cluster = await startCluster('smtp-retry', {
      credits: 1_000,
      env: {
        DNS_SERVERS: world.dnsServers,
        EMAIL_SMTP_PROBE: 'per_job',
        EMAIL_SMTP_PORT: String(world.port),
        EMAIL_SMTP_ALLOW_PRIVATE: 'true',
        EMAIL_SMTP_TIMEOUT_MS: '1000',
        EMAIL_SMTP_RETRY_DELAY_MS: '1000',
        EMAIL_SMTP_RETRY_WINDOW_MS: '600000',
        EMAIL_SMTP_CANARY_DOMAIN: '',
        DNS_CANARY_DOMAINS: 'truth0-world.com',
        BATCH_CHUNK_ROWS: '10',
      },
    });
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
  });
  after(async () => {
    await cluster?.close();
    await world?.stop();
  });

  it("scores another account's job while a greylisted job waits, and finishes that one after a scorer dies", async () => {
    const { held, other } = heldJobRows(world);
    const greylisted = held.filter((a) => a.behaviour === 'greylist').length;
    const waiting = await postBatch(cluster.client, cluster.apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${held.map((a) => a.address).join('\n')}\n`],
    ]);
    assert.equal(waiting.status, 202, JSON.stringify(waiting.body));
    const heldId = waiting.body.id as string;
    await eventually(
      async () => ((await retried(cluster)) >= greylisted ? true : undefined),
      'the first job held for its next round',
      60_000,
    );

    const bob = await createAccount(cluster.client, 'bob', 1_000);
    const scored = await postBatch(cluster.client, bob.api_key, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${other.map((a) => a.address).join('\n')}\n`],
    ]);
    assert.equal(scored.status, 202, JSON.stringify(scored.body));
    const bobClient = cluster.client.withKey(bob.api_key);
    const done = (await waitForJob(bobClient, scored.body.id as string, 120_000)).at(-1)!.body;
    assert.equal(done.status, 'done', JSON.stringify(done));
    assertWorldAnswers((await download(done.result_url as string)).text, other);
    const still = (await cluster.client.get(`/v1/batch/${heldId}`)).body;
    assert.equal(still.status, 'processing', JSON.stringify(still));

    // One scorer dies mid-window: the copies it held are redelivered to the other.
    await cluster.scorers[0].kill9();
    world.hosts.get(HELD_JOB_HOSTS.greylist)!.endGreylisting();
    const end = (await waitForJob(cluster.client, heldId, 240_000)).at(-1)!.body;
    assert.equal(end.status, 'done', JSON.stringify(end));
    assertWorldAnswers((await download(end.result_url as string)).text, held);
  });
});
