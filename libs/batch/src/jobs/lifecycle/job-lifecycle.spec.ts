import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { BATCH_STATUSES, type BatchStatus } from '@verity/contracts';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { BatchJobRepository } from '../batch-job.repository';
import { partKey, partialKey, resultKey, uploadKey } from '../batch-names';
import { JobLifecycle } from './job-lifecycle';
import { JOB_TRANSITIONS, isEnded, nextStatus, type JobTransition } from '../job-states';

/**
 * The lifecycle against PostgreSQL: every transition from every status does in the database
 * what the state machine says (the SQL guards and the table agree), a refused one changes
 * nothing, and every end is followed by its end effects, run again when they failed.
 */
describe('JobLifecycle on PostgreSQL', () => {
  let stack: TestStack;
  let lifecycle: JobLifecycle;
  let repository: BatchJobRepository;
  let blobs: BlobStore;
  let accountId: string;
  let n = 0;

  before(async () => {
    stack = await startTestStack();
    lifecycle = stack.app.get(JobLifecycle);
    repository = stack.app.get(BatchJobRepository);
    blobs = stack.app.get<BlobStore>(BLOB_STORE);
    accountId = (await stack.account(10_000, 'lifecycle')).accountId;
  });
  after(() => stack.close());

  /** A 2-row live job with its upload stored, brought to `status` through the lifecycle. */
  async function jobIn(status: BatchStatus): Promise<string> {
    const id = `job_${String(++n).padStart(32, 'e')}`;
    await blobs.put(uploadKey(id), Buffer.from('a@example.com\nb@example.com\n'));
    await lifecycle.create({
      id,
      accountId,
      keyId: null,
      type: 'email',
      totalRows: 2,
      uploadKey: uploadKey(id),
      webhookUrl: null,
      baseUrl: null,
      idempotencyKey: null,
      requestHash: null,
    });
    switch (status) {
      case 'queued':
        break;
      case 'processing':
        await lifecycle.start(id);
        break;
      case 'done':
        await lifecycle.start(id);
        await apply('finish', id);
        break;
      case 'failed':
        await lifecycle.fail(id, 'test');
        break;
    }
    assert.equal((await repository.findForWorker(id))?.status, status);
    return id;
  }

  async function apply(transition: JobTransition, id: string): Promise<void> {
    switch (transition) {
      case 'start':
        await lifecycle.start(id);
        return;
      case 'wait':
        await lifecycle.wait(id);
        return;
      case 'finish':
        // A split of no chunk: every chunk (none) is recorded, so the job may finish.
        await repository.setChunkCount(id, 0);
        await lifecycle.finish(id, resultKey(id));
        return;
      case 'fail':
        await lifecycle.fail(id, 'test');
        return;
    }
  }

  async function stored(id: string) {
    const [row] = await stack.dataSource.query<Record<string, unknown>[]>(
      'SELECT * FROM batch_jobs WHERE id = $1',
      [id],
    );
    const ledger = await stack.dataSource.query<{ reason: string; delta: string }[]>(
      'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [id],
    );
    return { row, ledger: ledger.map((l) => `${l.reason} ${l.delta}`) };
  }

  for (const from of BATCH_STATUSES) {
    for (const transition of JOB_TRANSITIONS) {
      const to = nextStatus(from, transition);
      it(`${transition} from ${from}: ${to === null ? 'refused, nothing changes' : `→ ${to}`}`, async () => {
        const id = await jobIn(from);
        const before = await stored(id);
        await apply(transition, id);
        const after = await stored(id);
        if (to === null) {
          assert.deepEqual(after, before);
          return;
        }
        assert.equal(after.row.status, to);
        if (!isEnded(to)) {
          assert.deepEqual(after.ledger, before.ledger);
          assert.ok(await blobs.head(uploadKey(id)), 'the upload stays while the job runs');
          return;
        }
        // An end: its ledger movement committed with it, its end effects ran.
        assert.equal(after.row.end_effects_due, false);
        assert.equal(await blobs.head(uploadKey(id)), null, 'the upload is deleted');
        assert.deepEqual(
          after.ledger,
          to === 'failed' ? ['batch_row -2', 'batch_refund 2'] : ['batch_row -2'],
        );
      });
    }
  }

  it('leaves the end effects due when they fail after the commit; the replay runs them once', async () => {
    const id = await jobIn('processing');
    const remove = blobs.delete.bind(blobs);
    blobs.delete = () => Promise.reject(new Error('blob store down'));
    try {
      await assert.rejects(lifecycle.fail(id, 'test'), /blob store down/);
    } finally {
      blobs.delete = remove;
    }
    const failed = await stored(id);
    assert.equal(failed.row.status, 'failed');
    assert.equal(failed.row.end_effects_due, true);
    assert.ok(await blobs.head(uploadKey(id)), 'the upload is still there');
    // The recovery sweep leaves an end younger than its grace to the process that ended it.
    assert.equal(await lifecycle.replayDueEnds(3_600_000), 0);
    assert.equal(await lifecycle.replayDueEnds(0), 1);
    assert.equal((await stored(id)).row.end_effects_due, false);
    assert.equal(await blobs.head(uploadKey(id)), null);
    assert.equal(await lifecycle.replayDueEnds(0), 0);
    // Nothing was refunded twice.
    assert.deepEqual((await stored(id)).ledger, ['batch_row -2', 'batch_refund 2']);
  });

  it('keeps a failed job’s scored rows as its partial file, once; a scored part that is gone leaves none and the other effects run', async () => {
    const kept = await jobIn('processing');
    await blobs.put(partKey(kept, 0), Buffer.from('a@example.com,scored\n'));
    await repository.recordChunk(kept, 0, 1);
    const failed = await lifecycle.fail(kept, 'test');
    assert.equal(failed?.partialKey, partialKey(kept));
    const file = await text(await blobs.get(partialKey(kept)));
    assert.match(file, /\na@example\.com,scored\n$/);
    assert.equal(file.split('\n').length, 3, 'the header and the one scored row');
    assert.equal(await blobs.head(partKey(kept, 0)), null, 'the part is deleted after');
    // A replay (the parts gone) keeps the file as it is.
    assert.equal(await lifecycle.replayEnd(kept), true);
    assert.equal(await text(await blobs.get(partialKey(kept))), file);

    const lost = await jobIn('processing');
    await repository.recordChunk(lost, 0, 1); // its part never reached the store
    await lifecycle.fail(lost, 'test');
    const row = (await stored(lost)).row;
    assert.equal(row.partial_key, null);
    assert.equal(row.end_effects_due, false);
    assert.equal(await blobs.head(uploadKey(lost)), null, 'the upload is deleted all the same');
  });

  it('replays the end of an ended job on request, and of no other', async () => {
    const done = await jobIn('done');
    await blobs.put(uploadKey(done), Buffer.from('left behind\n'));
    assert.equal(await lifecycle.replayEnd(done), true);
    assert.equal(await blobs.head(uploadKey(done)), null);
    const running = await jobIn('processing');
    assert.equal(await lifecycle.replayEnd(running), false);
    assert.ok(await blobs.head(uploadKey(running)));
    assert.equal(await lifecycle.replayEnd('job_unknown'), false);
  });
});
