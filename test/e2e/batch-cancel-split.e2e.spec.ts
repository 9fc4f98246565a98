import { execFileSync } from 'node:child_process';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BATCH_NAMES, JobLifecycle, type BatchNames } from '@verity/batch';
import { BLOB_STORE, ROW_BUS, type BlobStore, type RowBus } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { SplitterService } from '../../apps/ingest/src/splitter/splitter.service';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { eventually } from './batch-helpers';

const ROWS = 2_000;

/** `count` ip rows from `from` on, one per line. */
function ipRows(from: number, count: number): string {
  let out = '';
  for (let i = from; i < from + count; i++) out += `10.${(i >> 8) & 255}.${i & 255}.1\n`;
  return out;
}

describe('DELETE /v1/batch/{jobId} while the job is being split (embedded engine)', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: {
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        // 200 chunks: the split publishes and checkpoints them in several batches.
        BATCH_CHUNK_ROWS: '10',
      },
      modules: [IngestModule, ScorerModule],
    });
  });
  after(async () => {
    await stack.close();
  });

  it('the splitter stops at its next checkpoint without an error; charge = recorded rows; nothing is left but their partial file', async (t) => {
    const account = await stack.account(ROWS, 'cancel-mid-split');
    const blobs = stack.app.get<BlobStore>(BLOB_STORE);
    const bus = stack.app.get<RowBus>(ROW_BUS);
    const names = stack.app.get<BatchNames>(BATCH_NAMES);
    const id = 'job_5b000000000000000000000000000001';
    const uploadKey = `uploads/${id}.csv`;
    // The upload is a named pipe the test writes into: the splitter reads the first rows,
    // publishes and checkpoints them, then waits for the rest, which comes after the cancel.
    // (The local store deletes regular files only: the pipe itself stays until the stack ends.)
    const uploads = join(stack.config.VERITY_HOME, 'blobs', 'uploads');
    await mkdir(uploads, { recursive: true });
    execFileSync('mkfifo', [join(uploads, `${id}.csv`)]);
    await stack.app.get(JobLifecycle).create({
      id,
      accountId: account.accountId,
      keyId: null,
      type: 'ip',
      totalRows: ROWS,
      uploadKey,
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    const splitting = stack.app
      .get(SplitterService)
      .split(id)
      .then(
        (chunks) => ({ chunks, error: null }),
        (error: unknown) => ({ chunks: null, error }),
      );
    const pipe = await open(join(uploads, `${id}.csv`), 'w');
    try {
      await pipe.write(ipRows(0, 800));
      const checkpoint = await eventually(async () => {
        const [row] = await stack.dataSource.query<{ split_rows: number }[]>(
          'SELECT split_rows FROM batch_jobs WHERE id = $1',
          [id],
        );
        return row.split_rows > 0 ? row.split_rows : undefined;
      }, 'the first checkpoint');
      assert.ok(checkpoint < ROWS);

      const res = await account.client.delete(`/v1/batch/${id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'cancelled');
      await pipe.write(ipRows(800, ROWS - 800));
    } finally {
      await pipe.close();
    }
    // The split ends quietly: no error (an error would be retried and logged as a failure).
    assert.deepEqual(await splitting, { chunks: 0, error: null });

    await eventually(async () => {
      const lag = [
        ...(await bus.lag(names.scorerGroup, names.chunksTopic)),
        ...(await bus.lag(names.assemblerGroup, names.progressTopic)),
      ];
      return lag.every((p) => p.lag === 0) ? true : undefined;
    }, 'scorers and assembler idle');
    const [job] = await stack.dataSource.query<
      {
        status: string;
        split_rows: number;
        chunk_count: number | null;
        processed_rows: number;
        refunded_rows: number;
        chunk_rows: number;
        charge: number;
        refunds: number;
      }[]
    >(
      `SELECT j.status, j.split_rows, j.chunk_count, j.processed_rows, j.refunded_rows,
              (SELECT coalesce(sum(rows), 0)::int FROM batch_chunks WHERE job_id = j.id) AS chunk_rows,
              (SELECT -sum(delta)::int FROM credit_ledger WHERE reference = j.id) AS charge,
              (SELECT count(*)::int FROM credit_ledger
                WHERE reference = j.id AND reason = 'batch_refund') AS refunds
         FROM batch_jobs j WHERE j.id = $1`,
      [id],
    );
    t.diagnostic(
      `cancelled at split_rows ${job.split_rows}, ${job.processed_rows} rows recorded, ${job.refunded_rows} refunded`,
    );
    assert.equal(job.status, 'failed');
    assert.equal(job.chunk_count, null, 'the split never reported an end');
    assert.ok(job.split_rows < ROWS, `checkpoints stopped at the cancel (${job.split_rows})`);
    assert.equal(job.processed_rows, job.chunk_rows);
    assert.equal(job.charge, job.processed_rows);
    assert.equal(job.refunded_rows, ROWS - job.processed_rows);
    assert.equal(job.refunds, 1);
    // Nothing is left but the partial file of the recorded rows, when some were recorded.
    const left: string[] = [];
    for await (const key of blobs.list(`results/${id}/`)) left.push(key);
    assert.deepEqual(left, job.processed_rows > 0 ? [`results/${id}/partial.csv`] : []);
  });
});
