import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@verity/testing';
import { LocalBlobStore } from './local.blob-store';

describe('LocalBlobStore on one directory', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'verity-local-blobs-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('never loses a put to a delete emptying the same folder at the same time', async () => {
    const store = new LocalBlobStore(join(root, 'race'));
    try {
      // Each delete empties uploads/ and prunes it while the next put is creating it again.
      for (let round = 0; round < 300; round++) {
        await store.put(`uploads/job_${round}`, Buffer.from('x'));
        await Promise.all([
          store.delete(`uploads/job_${round}`),
          store.put(`uploads/job_${round + 1}_a`, Buffer.from('y')),
          store.put(`uploads/deep/job_${round + 1}_b`, Buffer.from('z')),
        ]);
        assert.notEqual(await store.head(`uploads/job_${round + 1}_a`), null);
        assert.notEqual(await store.head(`uploads/deep/job_${round + 1}_b`), null);
        await store.delete(`uploads/job_${round + 1}_a`);
        await store.delete(`uploads/deep/job_${round + 1}_b`);
      }
    } finally {
      await store.close();
    }
  });

  it('sweeps orphaned partial files at start and periodically, leaving fresh ones', async () => {
    const home = join(root, 'sweep');
    const partial = join(home, '.partial');
    await mkdir(partial, { recursive: true });
    const old = new Date(Date.now() - 3_600_000);
    await writeFile(join(partial, 'orphan.tmp'), 'x');
    await utimes(join(partial, 'orphan.tmp'), old, old);
    await writeFile(join(partial, 'fresh.tmp'), 'y');
    const store = new LocalBlobStore(home, { partialMaxAgeMs: 60_000, sweepIntervalMs: 100 });
    try {
      await waitFor('orphan swept at start', async () =>
        (await readdir(partial)).every((f) => f !== 'orphan.tmp'),
      );
      assert.deepEqual(await readdir(partial), ['fresh.tmp']);
      await writeFile(join(partial, 'later.tmp'), 'z');
      await utimes(join(partial, 'later.tmp'), old, old);
      await waitFor('orphan swept later', async () => (await readdir(partial)).length === 1);
    } finally {
      await store.close();
    }
  });
});
