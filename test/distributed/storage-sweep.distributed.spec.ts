import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { resultKey } from '@verity/batch';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import {
  outageHarnessMissing,
  startDedicatedS3,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import {
  INCOMPLETE_UPLOAD_MAX_AGE_MS,
  StorageRetentionService,
} from '../../apps/ingest/src/retention/storage-retention.service';
import { distributedSuite } from './cluster';

/**
 * An assembler's upload of a result file (the S3 adapter's multipart upload, more than one
 * 5 MiB part) in a process of its own, which says `part` once its first part is on its way and
 * then never ends its stream: the test kills it with SIGKILL, as a killed ingest.
 */
const ASSEMBLER = `
const { Readable } = require('node:stream');
const { createBlobStore } = require(process.argv[1]);
const [key, config] = [process.argv[2], JSON.parse(process.argv[3])];
async function* file() {
  yield Buffer.alloc(6 * 1024 * 1024, 0x61);
  process.send('part');
  await new Promise(() => setInterval(() => undefined, 60_000));
}
createBlobStore(config).upload(key, Readable.from(file())).catch(() => undefined);
`;

const missing = outageHarnessMissing(['s3']);

// S3Proxy of its own: the sweep aborts every incomplete upload of its bucket, and the shared
// bucket holds the uploads of other test runs.
distributedSuite('storage sweep of an interrupted assembly (S3Proxy of its own)', () => {
  let s3: Awaited<ReturnType<typeof startDedicatedS3>>;
  let stack: TestStack;
  let blobs: BlobStore;

  before(async () => {
    if (missing !== null) throw new Error(missing);
    s3 = await startDedicatedS3();
    stack = await startTestStack({
      env: { BLOB_STORE: 's3', ...s3.env },
      modules: [IngestModule],
    });
    blobs = stack.app.get<BlobStore>(BLOB_STORE);
  });
  after(async () => {
    await stack?.close();
    await s3?.destroy();
  });

  /** Multipart uploads under `prefix` that are still open (none is older than the epoch). */
  const open = async (prefix: string) =>
    (await blobs.abortIncompleteUploads(prefix, new Date(0))).kept;

  it('aborts the multipart upload a killed assembler left, 24 hours after it started, and not before', async () => {
    const key = resultKey(`job_${Date.now().toString(16).padStart(32, '0')}`);
    const started = Date.now();
    const assembler = spawn(
      process.execPath,
      [
        '-e',
        ASSEMBLER,
        join(__dirname, '..', '..', 'libs', 'ports', 'src'),
        key,
        JSON.stringify({ BLOB_STORE: 's3', ...s3.env, S3_FORCE_PATH_STYLE: true }),
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    await once(assembler, 'message');
    // The part is sent after the upload was created: wait until the store lists it.
    while ((await open('results/')) === 0) await sleep(50);
    assembler.kill('SIGKILL');
    await once(assembler, 'exit');
    assert.equal(await open('results/'), 1, 'the killed upload stays open');
    assert.equal(await blobs.head(key), null);

    const retention = stack.app.get(StorageRetentionService);
    const at = (ms: number) => new Date(started + ms);
    // Younger than a day (a live writer may still own it): kept.
    assert.equal((await retention.sweep(at(0))).abortedUploads, 0);
    assert.equal(
      (await retention.sweep(at(INCOMPLETE_UPLOAD_MAX_AGE_MS - 60_000))).abortedUploads,
      0,
    );
    assert.equal(await open('results/'), 1);
    // A day after it started: aborted, its parts gone, no object made of them.
    assert.equal(
      (await retention.sweep(at(INCOMPLETE_UPLOAD_MAX_AGE_MS + 60_000))).abortedUploads,
      1,
    );
    assert.equal(await open(''), 0);
    assert.equal(await blobs.head(key), null);
    assert.equal(
      (await retention.sweep(at(INCOMPLETE_UPLOAD_MAX_AGE_MS + 120_000))).abortedUploads,
      0,
    );
  });
});
