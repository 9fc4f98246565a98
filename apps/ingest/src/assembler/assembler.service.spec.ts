import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { DataSource } from 'typeorm';
import { BLOB_STORE, type BlobStore, type BusMessage } from '@verity/ports';
import {
  BatchAssemblyRepository,
  BatchJobRepository,
  csvHeader,
  encodeMessage,
  JobLifecycle,
  partialKey,
  partKey,
  processedRowsOf,
  resultKey,
  type ProgressMessage,
} from '@verity/batch';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../ingest.module';
import { AssemblerService } from './assembler.service';

let offset = 0;
function report(message: ProgressMessage): BusMessage {
  return {
    topic: 'verity.batch.progress',
    partition: 0,
    offset: String(offset++),
    key: message.jobId,
    value: encodeMessage(message),
  };
}

const chunk = (jobId: string, chunkNo: number, rows = 2): BusMessage =>
  report({ v: 1, kind: 'chunk', jobId, chunkNo, rows });
const split = (jobId: string, chunks: number): BusMessage =>
  report({ v: 1, kind: 'split', jobId, chunks });
const scoredSoFar = (jobId: string, chunkNo: number, rows: number): BusMessage =>
  report({ v: 1, kind: 'chunk_progress', jobId, chunkNo, rows });

describe('assembler: completion reports in any order, duplicated, concurrent', () => {
  let stack: TestStack;
  let accountId: string;
  let blobs: BlobStore;
  let assembler: AssemblerService;
  let repository: BatchJobRepository;
  let lifecycle: JobLifecycle;
  /** Result-file uploads per job, and a hook to slow or break them. */
  const uploads = new Map<string, number>();
  let beforeUpload: (key: string) => Promise<void> = () => Promise.resolve();

  before(async () => {
    stack = await startTestStack({ modules: [IngestModule] });
    accountId = (await stack.account(1_000, 'assembler')).accountId;
    blobs = stack.app.get<BlobStore>(BLOB_STORE);
    assembler = stack.app.get(AssemblerService);
    repository = stack.app.get(BatchJobRepository);
    lifecycle = stack.app.get(JobLifecycle);
    const upload = blobs.upload.bind(blobs);
    blobs.upload = async (key, body) => {
      await beforeUpload(key);
      uploads.set(key, (uploads.get(key) ?? 0) + 1);
      return upload(key, body);
    };
  });
  after(() => stack.close());

  /** A processing job of `chunks` chunks of 2 rows whose parts are already stored. */
  async function jobWithParts(n: number, chunks: number): Promise<string> {
    const id = `job_${String(n).padStart(32, '0')}`;
    await lifecycle.create({
      id,
      accountId,
      keyId: null,
      type: 'ip',
      totalRows: chunks * 2,
      uploadKey: `uploads/${id}.csv`,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    await lifecycle.start(id);
    for (let c = 0; c < chunks; c++) {
      await blobs.put(partKey(id, c), Buffer.from(`row${2 * c}\nrow${2 * c + 1}\n`, 'utf8'));
    }
    return id;
  }

  async function resultOf(id: string): Promise<string> {
    return text(await blobs.get(resultKey(id)));
  }

  const expected = (chunks: number): string =>
    csvHeader('ip') + Array.from({ length: chunks * 2 }, (_, i) => `row${i}\n`).join('');

  it('assembles once when the last two chunks and the split report arrive together, with redeliveries', async () => {
    const id = await jobWithParts(1, 4);
    // Out of order, one duplicate: chunk 3 before 0, chunk 0 twice.
    await assembler.handle(chunk(id, 3));
    await assembler.handle(chunk(id, 0));
    await assembler.handle(chunk(id, 0));
    let job = await repository.findForWorker(id);
    assert.equal(job?.chunksDone, 2);
    assert.equal(job?.processedRows, 4);
    // Slow uploads so the concurrent handlers overlap any assembly.
    beforeUpload = () => sleep(50);
    await Promise.all([
      assembler.handle(chunk(id, 1)),
      assembler.handle(chunk(id, 2)),
      assembler.handle(split(id, 4)),
      assembler.handle(chunk(id, 2)),
      assembler.handle(chunk(id, 1)),
    ]);
    beforeUpload = () => Promise.resolve();
    job = await repository.findForWorker(id);
    assert.equal(job?.status, 'done');
    assert.equal(job?.chunksDone, 4);
    assert.equal(job?.processedRows, 8);
    assert.equal(uploads.get(resultKey(id)), 1);
    assert.equal(await resultOf(id), expected(4));
    // A report redelivered after the end changes nothing.
    await assembler.handle(chunk(id, 3));
    assert.equal(uploads.get(resultKey(id)), 1);
    assert.equal((await repository.findForWorker(id))?.processedRows, 8);
  });

  it('assembles when the split report comes last', async () => {
    const id = await jobWithParts(2, 3);
    await Promise.all([0, 1, 2].map((c) => assembler.handle(chunk(id, c))));
    assert.equal((await repository.findForWorker(id))?.status, 'processing');
    await assembler.handle(split(id, 3));
    assert.equal((await repository.findForWorker(id))?.status, 'done');
    assert.equal(await resultOf(id), expected(3));
  });

  it('an assembly that dies midway leaves the job processing; the redelivered report finishes it', async () => {
    const id = await jobWithParts(3, 2);
    await assembler.handle(split(id, 2));
    await assembler.handle(chunk(id, 0));
    beforeUpload = () => Promise.reject(new Error('blob store down'));
    await assert.rejects(assembler.handle(chunk(id, 1)), /blob store down/);
    beforeUpload = () => Promise.resolve();
    assert.equal((await repository.findForWorker(id))?.status, 'processing');
    await assembler.handle(chunk(id, 1)); // the redelivery
    const job = await repository.findForWorker(id);
    assert.equal(job?.status, 'done');
    assert.equal(job?.processedRows, 4);
    assert.equal(await resultOf(id), expected(2));
  });

  it('holds no transaction while the result file is uploaded', async () => {
    const id = await jobWithParts(6, 2);
    const db = stack.app.get(DataSource);
    let inTransaction: { state: string; query: string }[] | undefined;
    beforeUpload = async () => {
      // Another connection's transaction left open across the upload shows as idle in it.
      inTransaction = await db.query<{ state: string; query: string }[]>(
        `SELECT state, query FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state LIKE 'idle in transaction%'`,
      );
    };
    await assembler.handle(split(id, 2));
    await Promise.all([assembler.handle(chunk(id, 0)), assembler.handle(chunk(id, 1))]);
    beforeUpload = () => Promise.resolve();
    assert.deepEqual(inTransaction, []);
    assert.equal((await repository.findForWorker(id))?.status, 'done');
    assert.equal(await resultOf(id), expected(2));
  });

  it('a finisher whose claim ran out and one that took over both finish idempotently', async () => {
    const id = await jobWithParts(7, 2);
    const db = stack.app.get(DataSource);
    await assembler.handle(split(id, 2));
    await assembler.handle(chunk(id, 0));
    // The first finisher stalls inside its upload (a paused process)...
    let resume!: () => void;
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    let uploading!: () => void;
    const started = new Promise<void>((resolve) => (uploading = resolve));
    beforeUpload = () => {
      uploading();
      return stalled;
    };
    const first = assembler.handle(chunk(id, 1));
    await started;
    beforeUpload = () => Promise.resolve();
    // ...until its lease runs out, and a redelivered report takes the assembly over.
    await db.query(
      `UPDATE batch_jobs SET assembly_lease_until = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    await assembler.handle(chunk(id, 1));
    assert.equal((await repository.findForWorker(id))?.status, 'done');
    assert.equal(await resultOf(id), expected(2));
    // The first one wakes up after the clean-up removed the parts: its write fails and leaves
    // the finished file as it was; its redelivered report finds the job done.
    resume();
    await assert.rejects(first);
    await assembler.handle(chunk(id, 1));
    const job = await repository.findForWorker(id);
    assert.equal(job?.status, 'done');
    assert.equal(job?.processedRows, 4);
    assert.equal(uploads.get(resultKey(id)), 2);
    assert.equal(await resultOf(id), expected(2));
    // A finisher that comes after the end has nothing to do.
    const again = await stack.app
      .get(BatchAssemblyRepository)
      .tryAssembly(id, 'test', () => Promise.resolve(true));
    assert.deepEqual(again, { state: 'not_ready' });
    assert.equal(uploads.get(resultKey(id)), 2);
  });

  it('a cancel that overtakes an assembly ends it without an error and delivers the whole file as partial, whether the parts were gone or not', async () => {
    const blobsDeletePrefix = blobs.deletePrefix.bind(blobs);
    for (const [n, cleanedUpFirst] of [
      [60, true],
      [61, false],
    ] as const) {
      const id = await jobWithParts(n, 2);
      await assembler.handle(split(id, 2));
      await assembler.handle(chunk(id, 0));
      let resume!: () => void;
      const stalled = new Promise<void>((resolve) => (resume = resolve));
      let uploading!: () => void;
      const started = new Promise<void>((resolve) => (uploading = resolve));
      beforeUpload = () => {
        uploading();
        return stalled;
      };
      const assembling = assembler.handle(chunk(id, 1));
      await started;
      beforeUpload = () => Promise.resolve();
      // With the cancel's clean-up first, the assembly finds its parts gone; with the clean-up
      // held back (a slow API process), it writes the file and finds the job failed when it
      // marks it done.
      let cleanUp!: () => void;
      const cleanUpHeld = new Promise<void>((resolve) => (cleanUp = resolve));
      if (!cleanedUpFirst) {
        blobs.deletePrefix = async (prefix) => {
          blobs.deletePrefix = blobsDeletePrefix; // only the cancel's own clean-up waits
          await cleanUpHeld;
          return blobsDeletePrefix(prefix);
        };
      }
      const cancelling = lifecycle.cancel(accountId, 'live', id);
      if (cleanedUpFirst) await cancelling;
      else while ((await repository.findForWorker(id))?.status !== 'failed') await sleep(10);
      resume();
      await assembling;
      cleanUp();
      // Every chunk is recorded: the cancel refunds nothing, says so, and delivers every row
      // as the partial file; no result file or part is kept.
      const job = await cancelling;
      assert.equal(job.status, 'failed');
      assert.equal(job.failureCode, 'cancelled');
      assert.equal(job.refundedRows, 0);
      assert.equal(
        job.failureMessage,
        'the job was cancelled; every row was scored: 0 rows refunded (0 credits)',
      );
      assert.equal(job.partialKey, partialKey(id));
      assert.equal((await repository.findForWorker(id))?.status, 'failed');
      const left: string[] = [];
      for await (const key of blobs.list(`results/${id}/`)) left.push(key);
      assert.deepEqual(left, [partialKey(id)]);
      assert.equal(await text(await blobs.get(partialKey(id))), expected(2));
      const refunds = await stack.dataSource.query<unknown[]>(
        `SELECT 1 FROM credit_ledger WHERE reference = $1 AND reason = 'batch_refund'`,
        [id],
      );
      assert.deepEqual(refunds, []);
    }
  });

  it('records many completions of several jobs in one statement, each chunk once', async () => {
    const a = await jobWithParts(4, 3);
    const b = await jobWithParts(5, 3);
    const jobs = await repository.recordChunks([
      { jobId: a, chunkNo: 0, rows: 2 },
      { jobId: b, chunkNo: 2, rows: 2 },
      { jobId: a, chunkNo: 0, rows: 2 },
      { jobId: a, chunkNo: 1, rows: 2 },
      { jobId: 'job_unknown', chunkNo: 0, rows: 2 },
    ]);
    assert.equal(jobs.get(a)?.chunksDone, 2);
    assert.equal(jobs.get(a)?.processedRows, 4);
    assert.equal(jobs.get(b)?.chunksDone, 1);
    assert.equal(jobs.get('job_unknown'), null);
    // All duplicates: the jobs come back unchanged.
    const again = await repository.recordChunks([
      { jobId: a, chunkNo: 1, rows: 2 },
      { jobId: b, chunkNo: 2, rows: 2 },
    ]);
    assert.equal(again.get(a)?.chunksDone, 2);
    assert.equal(again.get(b)?.processedRows, 2);
  });
  it('counts rows scored inside chunks once: a restarted chunk counts from 0, a recorded one stops counting', async () => {
    // Three chunks of 10 rows (the parts hold 2 rows each: this test never assembles).
    const id = await jobWithParts(40, 3);
    await stack.dataSource.query('UPDATE batch_jobs SET total_rows = 30 WHERE id = $1', [id]);
    const shown = async () => processedRowsOf((await repository.findForWorker(id))!);
    await assembler.handle(scoredSoFar(id, 0, 4));
    await assembler.handle(scoredSoFar(id, 1, 3));
    assert.equal(await shown(), 7);
    await assembler.handle(scoredSoFar(id, 0, 6));
    assert.equal(await shown(), 9);
    // Chunk 0 is scored again from its start (a redelivery): the figure does not go back.
    await assembler.handle(scoredSoFar(id, 0, 2));
    assert.equal(await shown(), 9);
    await assembler.handle(scoredSoFar(id, 0, 8));
    assert.equal(await shown(), 11);
    // Chunk 0 completes; a running count of it that arrives late is not added to its 10 rows.
    await assembler.handle(chunk(id, 0, 10));
    assert.equal(await shown(), 11);
    await assembler.handle(scoredSoFar(id, 0, 9));
    assert.equal(await shown(), 13);
    const job = (await repository.findForWorker(id))!;
    assert.equal(job.processedRows, 10, 'processed_rows stays the rows of recorded chunks');
    // Once the job ended, reports change nothing; its end drops the running counts.
    await lifecycle.fail(id, 'test', { code: 'internal_error', message: 'test' });
    await assembler.handle(scoredSoFar(id, 2, 9));
    const failed = (await repository.findForWorker(id))!;
    assert.equal(processedRowsOf(failed), 10);
    const [{ n }] = await stack.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM batch_chunk_progress WHERE job_id = $1',
      [id],
    );
    assert.equal(n, 0);
  });

  it('never records a chunk after the job failed: the refund, processed_rows and the partial file match what was recorded', async () => {
    const jobs = lifecycle;
    for (let n = 10; n < 30; n++) {
      const id = await jobWithParts(n, 6);
      await repository.recordChunks([0, 5].map((chunkNo) => ({ jobId: id, chunkNo, rows: 2 })));
      // A failure and a group of completions race for the same job row.
      await Promise.all([
        jobs.fail(id, 'test', { code: 'internal_error', message: 'test' }),
        repository.recordChunks([1, 2, 3, 4].map((chunkNo) => ({ jobId: id, chunkNo, rows: 2 }))),
      ]);
      const job = await repository.findForWorker(id);
      const recorded = await repository.recordedRows(id);
      assert.ok(job);
      assert.equal(job.status, 'failed');
      assert.equal(job.processedRows, recorded);
      assert.equal(job.refundedRows, job.totalRows - recorded);
      // The partial file: exactly the recorded chunks' rows, in input order.
      const chunks = await repository.recordedChunksFrom(id, 0);
      const rows = [...chunks].sort((a, b) => a - b).map((c) => `row${2 * c}\nrow${2 * c + 1}\n`);
      assert.equal(job.partialKey, partialKey(id));
      assert.equal(await text(await blobs.get(partialKey(id))), csvHeader('ip') + rows.join(''));
    }
  });
});
