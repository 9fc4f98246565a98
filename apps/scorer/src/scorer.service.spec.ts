import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BATCH_NAMES,
  JobLifecycle,
  decodeProgress,
  encodeMessage,
  partKey,
  type BatchNames,
  type ProgressMessage,
} from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type BusMessage, type RowBus } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { ScorerModule } from './scorer.module';
import { ScorerService } from './scorer.service';

describe('scorer: a chunk whose job ends while it is scored is dropped', () => {
  let stack: TestStack;
  let accountId: string;
  let scorer: ScorerService;
  let blobs: BlobStore;
  let bus: RowBus;
  let names: BatchNames;
  const reports: ProgressMessage[] = [];
  /** Part writes, and a hook that runs before each. */
  const puts: string[] = [];
  let beforePut: (key: string) => Promise<void> = () => Promise.resolve();

  before(async () => {
    stack = await startTestStack({ modules: [ScorerModule] });
    accountId = (await stack.account(1_000, 'scorer')).accountId;
    scorer = stack.app.get(ScorerService);
    blobs = stack.app.get<BlobStore>(BLOB_STORE);
    bus = stack.app.get<RowBus>(ROW_BUS);
    names = stack.app.get<BatchNames>(BATCH_NAMES);
    await bus.consume('scorer-spec', names.progressTopic, (msg) => {
      const report = decodeProgress(msg.value);
      if (report) reports.push(report);
      return Promise.resolve();
    });
    const put = blobs.put.bind(blobs);
    blobs.put = async (key, body) => {
      await beforePut(key);
      puts.push(key);
      return put(key, body);
    };
  });
  after(async () => {
    stack.dns.release();
    await stack.close();
  });

  /** A processing email job of `rows` rows, and its only chunk as the splitter sends it. */
  async function processingJob(n: number, rows: string[]): Promise<[string, BusMessage]> {
    const id = `job_${String(n).padStart(32, 'd')}`;
    await stack.app.get(JobLifecycle).create({
      id,
      accountId,
      keyId: null,
      type: 'email',
      totalRows: rows.length,
      uploadKey: `uploads/${id}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    await stack.app.get(JobLifecycle).start(id);
    const value = encodeMessage({ v: 1, jobId: id, type: 'email', chunkNo: 0, firstRow: 0, rows });
    return [id, { topic: names.chunksTopic, partition: 0, offset: String(n), key: id, value }];
  }

  const cancel = (id: string) => stack.app.get(JobLifecycle).cancel(accountId, 'live', id);

  async function reportsOf(id: string): Promise<ProgressMessage[]> {
    for (;;) {
      const lag = await bus.lag('scorer-spec', names.progressTopic);
      if (lag.every((p) => p.lag === 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return reports.filter((r) => r.jobId === id && r.kind !== 'chunk_progress');
  }

  it('scores and reports a chunk of a running job, its rows counted by verdict (the baseline)', async () => {
    const [id, msg] = await processingJob(1, ['jane@example.com', 'bad address']);
    await scorer.handle(msg);
    assert.ok(await blobs.head(partKey(id, 0)));
    assert.deepEqual(await reportsOf(id), [
      {
        v: 1,
        kind: 'chunk',
        jobId: id,
        chunkNo: 0,
        rows: 2,
        verdicts: { deliverable: 1, risky: 0, undeliverable: 1, unknown: 0 },
      },
    ]);
  });

  it('writes no part when the job ended before the write', async () => {
    const [id, msg] = await processingJob(2, ['a@slow-one.example', 'b@slow-two.example']);
    stack.dns.hold();
    const handled = scorer.handle(msg);
    while (stack.dns.queries.filter((q) => q.includes('slow-')).length < 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await cancel(id);
    stack.dns.release();
    await handled;
    assert.ok(!puts.includes(partKey(id, 0)), 'no part written');
    assert.equal(await blobs.head(partKey(id, 0)), null);
    assert.deepEqual(await reportsOf(id), []);
  });

  it('deletes its part when the job ended while the part was written, and reports nothing', async () => {
    const [id, msg] = await processingJob(3, ['jane@example.com']);
    beforePut = async (key) => {
      if (key === partKey(id, 0)) await cancel(id);
    };
    try {
      await scorer.handle(msg);
    } finally {
      beforePut = () => Promise.resolve();
    }
    assert.ok(puts.includes(partKey(id, 0)), 'the part was written');
    assert.equal(await blobs.head(partKey(id, 0)), null, 'and deleted');
    assert.deepEqual(await reportsOf(id), []);
    // A redelivery of the chunk after the end does nothing at all.
    const before = puts.length;
    await scorer.handle(msg);
    assert.equal(puts.length, before);
    assert.deepEqual(await reportsOf(id), []);
  });
});
