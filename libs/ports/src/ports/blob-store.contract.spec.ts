import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { LocalBlobStore } from '../adapters/local.blob-store';
import { S3BlobStore } from '../adapters/s3.blob-store';
import { blobStoreContract, backendGate } from '@verity/testing';

const roots = new Map<LocalBlobStore, string>();
blobStoreContract('local', {
  create: async () => {
    const root = await mkdtemp(join(tmpdir(), 'verity-blobs-'));
    const store = new LocalBlobStore(root);
    roots.set(store, root);
    return store;
  },
  dispose: async (store) => {
    const root = roots.get(store)!;
    // Every write went through rename: the temp area must be empty again.
    assert.deepEqual(await readdir(join(root, '.partial')), []);
    await store.close();
    await rm(root, { recursive: true, force: true });
  },
});

const s3 = backendGate('S3_ENDPOINT');
blobStoreContract(
  's3',
  {
    create: () =>
      Promise.resolve(
        new S3BlobStore({
          endpoint: process.env.S3_ENDPOINT,
          region: process.env.S3_REGION ?? 'us-east-1',
          bucket: process.env.S3_BUCKET ?? 'verity',
          accessKeyId: process.env.S3_ACCESS_KEY_ID,
          secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: true,
        }),
      ),
    dispose: (store) => store.close(),
  },
  { skip: s3.skip },
);
