import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BATCH_NAMES,
  JobLifecycle,
  decodeChunk,
  type BatchNames,
  type ChunkMessage,
} from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type RowBus } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { ScorerModule } from './scorer.module';
import { heldKey, nextRound, SmtpRetryWindow, type RoundSettings } from './smtp-retry.window';

const JOB = `job_${'e'.repeat(32)}`;

const chunk = (over: Partial<ChunkMessage> = {}): ChunkMessage => ({
  v: 1,
  jobId: JOB,
  type: 'email',
  smtp: true,
  chunkNo: 3,
  firstRow: 30,
  rows: ['a@x.com', 'b@x.com', 'c@x.com'],
  ...over,
});

describe('SmtpRetryWindow', () => {
  describe('its rounds', () => {
    const settings = (over: Partial<RoundSettings> = {}): RoundSettings => ({
      EMAIL_SMTP_RETRY_DELAY_MS: 1_000,
      EMAIL_SMTP_RETRY_WINDOW_MS: 10_000,
      BATCH_STALL_MS: 300_000,
      ...over,
    });

    it('asks again after the delay, doubling, the last round at the window end', () => {
      const first = nextRound(settings(), undefined, 0)!;
      assert.deepEqual(first, { round: 1, notBefore: 1_000, until: 10_000 });
      const second = nextRound(settings(), first, 1_000)!;
      assert.deepEqual(second, { round: 2, notBefore: 3_000, until: 10_000 });
      const third = nextRound(settings(), second, 3_000)!;
      assert.deepEqual(third, { round: 3, notBefore: 7_000, until: 10_000 });
      const last = nextRound(settings(), third, 7_000)!;
      assert.deepEqual(last, { round: 4, notBefore: 10_000, until: 10_000 });
      assert.equal(nextRound(settings(), last, 10_000), null);
    });

    it('never waits as long as the stall sweep looks back, and is off at 0', () => {
      const long = settings({ EMAIL_SMTP_RETRY_WINDOW_MS: 3_600_000, BATCH_STALL_MS: 60_000 });
      const late = nextRound(long, { round: 9, notBefore: 0, until: 3_600_000 }, 0);
      assert.equal(late?.notBefore, 30_000);
      assert.equal(nextRound(settings({ EMAIL_SMTP_RETRY_WINDOW_MS: 0 }), undefined, 0), null);
    });
  });

  describe('holding a chunk', () => {
    let stack: TestStack;
    let window: SmtpRetryWindow;
    let blobs: BlobStore;
    let bus: RowBus;
    let names: BatchNames;

    before(async () => {
      stack = await startTestStack({ modules: [ScorerModule] });
      const { accountId } = await stack.account(100);
      blobs = stack.app.get<BlobStore>(BLOB_STORE);
      bus = stack.app.get<RowBus>(ROW_BUS);
      names = stack.app.get<BatchNames>(BATCH_NAMES);
      const lifecycle = stack.app.get(JobLifecycle);
      window = new SmtpRetryWindow(stack.config, lifecycle, blobs, bus, names);
      await lifecycle.create({
        id: JOB,
        accountId,
        keyId: null,
        type: 'email',
        totalRows: 3,
        uploadKey: `uploads/${JOB}.csv`,
        webhookUrl: null,
        baseUrl: null,
        idempotencyKey: null,
        requestHash: null,
      });
      await lifecycle.start(JOB);
      // A long-idle job: the hold must move its clock.
      await stack.dataSource.query(
        `UPDATE batch_jobs SET updated_at = now() - interval '1 hour' WHERE id = $1`,
        [JOB],
      );
    });
    after(() => stack.close());

    it('keeps the settled lines, sends the chunk to the retries topic for its round and marks the job waiting', async () => {
      const copies: ChunkMessage[] = [];
      const partitions: number[] = [];
      const subscription = await bus.consume('retry-spec', names.chunkRetriesTopic, (msg) => {
        const copy = decodeChunk(msg.value);
        if (copy?.jobId === JOB && copy.retry) {
          copies.push(copy);
          partitions.push(msg.partition);
        }
        return Promise.resolve();
      });
      const multi = chunk({ lines: ['1,a@x.com', '2,b@x.com', '3,c@x.com'] });
      const next = { round: 1, notBefore: Date.now() + 50, until: Date.now() + 10_000 };
      await window.hold(
        multi,
        { lines: ['a\r\n', 'b\r\n', 'c\r\n'], retryable: [false, true, false] },
        next,
      );
      while (copies.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await subscription.stop();
      assert.deepEqual(copies[0], { ...multi, retry: next });
      // Spread like the chunks: chunk n on partition n mod KAFKA_CHUNK_PARTITIONS.
      assert.deepEqual(partitions, [3 % stack.config.KAFKA_CHUNK_PARTITIONS]);
      const [{ idle }] = await stack.dataSource.query<{ idle: number }[]>(
        `SELECT extract(epoch FROM now() - updated_at)::int AS idle FROM batch_jobs WHERE id = $1`,
        [JOB],
      );
      assert.ok(idle < 60, `updated ${idle} s ago`);

      const held = await window.resume(copies[0], new AbortController().signal);
      assert.deepEqual(held, ['a\r\n', null, 'c\r\n']);
      await window.release(copies[0]);
      assert.equal(await blobs.head(heldKey(JOB, 3)), null);
      assert.equal(await window.resume(copies[0], new AbortController().signal), null);
    });

    it('stops waiting for its round when the signal aborts', async () => {
      const waiting = chunk({ retry: { round: 1, notBefore: Date.now() + 60_000, until: 0 } });
      const controller = new AbortController();
      const resumed = window.resume(waiting, controller.signal);
      controller.abort(new Error('job ended'));
      await assert.rejects(resumed, /job ended|aborted/);
    });
  });
});
