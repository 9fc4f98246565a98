// The SMTP retry window never blocks other chunks (docs/models/email.md, "Retry window"): a
// job whose chunks wait for their next round on a greylisting host is held on the
// chunk-retries topic, and another account's job is scored meanwhile. Every chunk shares one
// partition (KAFKA_CHUNK_PARTITIONS=1) and the round comes only after 10 minutes, so a copy
// waiting in front of the other job's chunks would keep that job from ever finishing here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_NAMES, type BatchNames } from '@verity/batch';
import { ROW_BUS, type RowBus } from '@verity/ports';
import {
  assertWorldAnswers,
  createTestDatabase,
  HELD_JOB_HOSTS,
  heldJobRows,
  heldJobWorld,
  MailWorld,
  parseScrape,
  startTestStack,
  total,
  type TestDatabase,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, eventually, postBatch, waitForJob } from './batch-helpers';

describe('SMTP retry window beside other jobs (embedded engine, loopback mail world)', () => {
  let world: MailWorld;
  let database: TestDatabase;
  let home: string;
  const stacks: TestStack[] = [];

  before(async () => {
    world = await MailWorld.start(heldJobWorld());
    database = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'verity-smtp-retry-'));
  });
  after(async () => {
    for (const stack of stacks) await stack.close().catch(() => undefined);
    await world?.stop();
    await database?.drop();
    await rm(home, { recursive: true, force: true });
  });

  /** The embedded pipeline on the shared database and data directory. */
  async function pipeline(): Promise<TestStack> {
    const stack = await startTestStack({
      database,
      env: {
        VERITY_HOME: home,
        DNS_SERVERS: world.dnsServers,
        EMAIL_SMTP_PROBE: 'on',
        EMAIL_SMTP_PORT: String(world.port),
        EMAIL_SMTP_ALLOW_PRIVATE: 'true',
        EMAIL_SMTP_TIMEOUT_MS: '1000',
        EMAIL_SMTP_RETRY_DELAY_MS: '600000',
        EMAIL_SMTP_RETRY_WINDOW_MS: '1200000',
        BATCH_STALL_MS: '1800000',
        EMAIL_SMTP_CANARY_DOMAIN: 'truth0-world.com',
        DNS_CANARY_DOMAINS: 'truth0-world.com',
        KAFKA_CHUNK_PARTITIONS: '1',
        BATCH_CHUNK_ROWS: '10',
      },
      modules: [IngestModule, ScorerModule],
    });
    stacks.push(stack);
    return stack;
  }

  /** Messages the group has not committed on the topic, over its partitions. */
  async function lagOf(stack: TestStack, group: string, topic: string): Promise<number> {
    const parts = await stack.app.get<RowBus>(ROW_BUS).lag(group, topic);
    return parts.reduce((n, p) => n + p.lag, 0);
  }

  it("scores another account's job while a greylisted job waits for its round, then finishes that one right", async () => {
    const { held, other } = heldJobRows(world);
    const greylisted = held.filter((a) => a.behaviour === 'greylist').length;
    const first = await pipeline();
    const names = first.app.get<BatchNames>(BATCH_NAMES);
    const alice = await first.account(1_000, 'alice');
    const bob = await first.account(1_000, 'bob');

    const waiting = await postBatch(first.client, alice.apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${held.map((a) => a.address).join('\n')}\n`],
    ]);
    assert.equal(waiting.status, 202, JSON.stringify(waiting.body));
    const heldId = waiting.body.id as string;
    // Every chunk of it asked the greylisting host once and went to its retry window.
    await eventually(async () => {
      const scrape = parseScrape((await first.client.get('/metrics')).body as string);
      const retries = total(scrape, 'verity_smtp_retries_total', { cause: 'temporary_failure' });
      return retries >= greylisted ? true : undefined;
    }, 'the first job held for its next round');
    const asked = world.stats()[HELD_JOB_HOSTS.greylist].rcpts;

    const scored = await postBatch(first.client, bob.apiKey, [
      ['type', 'email'],
      ['smtp', 'true'],
      ['file', `${other.map((a) => a.address).join('\n')}\n`],
    ]);
    assert.equal(scored.status, 202, JSON.stringify(scored.body));
    const done = (await waitForJob(bob.client, scored.body.id as string, 120_000)).at(-1)!.body;
    assert.equal(done.status, 'done', JSON.stringify(done));
    assertWorldAnswers((await download(done.result_url as string)).text, other);

    // Meanwhile the first job's chunks still wait for their first retry round, on their topic.
    const still = (await alice.client.get(`/v1/batch/${heldId}`)).body;
    assert.equal(still.status, 'processing', JSON.stringify(still));
    assert.equal(still.processed_rows, 0);
    assert.equal(world.stats()[HELD_JOB_HOSTS.greylist].rcpts, asked, 'no retry round asked yet');
    const chunks = Math.ceil(held.length / 10);
    assert.equal(await lagOf(first, names.scorerRetryGroup, names.chunkRetriesTopic), chunks);
    assert.equal(await lagOf(first, names.scorerGroup, names.chunksTopic), 0);

    // A stop ends the waits at once (the copies stay uncommitted); after the restart the
    // recovery scores the job again, now that the host accepts.
    world.hosts.get(HELD_JOB_HOSTS.greylist)!.endGreylisting();
    await first.close();
    stacks.splice(stacks.indexOf(first), 1);
    const second = await pipeline();
    const end = (await waitForJob(second.client.withKey(alice.apiKey), heldId, 120_000)).at(
      -1,
    )!.body;
    assert.equal(end.status, 'done', JSON.stringify(end));
    assertWorldAnswers((await download(end.result_url as string)).text, held);
    const ledger = await second.dataSource.query<{ reason: string; delta: number }[]>(
      `SELECT reason, delta::int AS delta FROM credit_ledger WHERE reference = $1 ORDER BY id`,
      [heldId],
    );
    assert.deepEqual(ledger, [{ reason: 'batch_row', delta: -held.length }]);
  });
});
