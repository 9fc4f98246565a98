import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferred, uniqueName, type PortHarness } from './contract-helpers';
import { BlobNotFoundError, InvalidBlobKeyError, type BlobStore } from '@verity/ports';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const k of it) out.push(k);
  return out.sort();
}

/** A deterministic stream of `size` bytes in 64 KiB chunks; `hash` is its sha256. */
function patternStream(size: number): { stream: Readable; hash: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for (let off = 0, i = 0; off < size; off += 65_536, i++) {
    const chunk = Buffer.alloc(Math.min(65_536, size - off), i % 251);
    hash.update(chunk);
    chunks.push(chunk);
  }
  return { stream: Readable.from(chunks), hash: hash.digest('hex') };
}

/**
 * The BlobStore contract: every adapter must pass it. All keys of a run live under one
 * unique prefix, deleted at the end.
 */
export function blobStoreContract<S extends BlobStore>(
  name: string,
  harness: PortHarness<S>,
  opts: { skip?: string | false; timeoutMs?: number } = {},
): void {
  const timeout = opts.timeoutMs ?? 60_000;
  describe(`BlobStore contract: ${name}`, { skip: opts.skip }, () => {
    let store: S;
    const base = `${uniqueName('contract')}/`;
    before(async () => {
      store = await harness.create();
    });
    after(async () => {
      await store.deletePrefix(base);
      await harness.dispose(store);
    });

    it('stores, reads, sizes and deletes objects', { timeout }, async () => {
      await store.ping();
      const key = `${base}rw/a.csv`;
      await store.put(key, Buffer.from('email\nx@y.z\n'));
      assert.deepEqual(await store.head(key), { size: 12 });
      assert.equal((await readAll(await store.get(key))).toString(), 'email\nx@y.z\n');
      await store.put(key, Readable.from([Buffer.from('over'), Buffer.from('written')]));
      assert.equal((await readAll(await store.get(key))).toString(), 'overwritten');
      await store.delete(key);
      await store.delete(key); // absent is fine
      assert.equal(await store.head(key), null);
    });

    it('rejects a missing object with BlobNotFoundError', { timeout }, async () => {
      await assert.rejects(store.get(`${base}missing/x`), BlobNotFoundError);
      assert.equal(await store.head(`${base}missing/x`), null);
    });

    it('never shows a half-written object', { timeout }, async () => {
      const key = `${base}atomic/obj`;
      await store.put(key, Buffer.from('old'));
      const release = deferred();
      async function* slow() {
        yield Buffer.alloc(1024, 1);
        await release.promise;
        yield Buffer.alloc(1024, 2);
      }
      const writing = store.put(key, Readable.from(slow()));
      await sleep(100); // the first half is written (or buffered) by now
      assert.equal((await readAll(await store.get(key))).toString(), 'old');
      assert.deepEqual(await store.head(key), { size: 3 });
      const fresh = `${base}atomic/fresh`;
      const writingFresh = store.put(fresh, Readable.from(slow()));
      await sleep(100);
      assert.equal(await store.head(fresh), null);
      await assert.rejects(store.get(fresh), BlobNotFoundError);
      release.resolve();
      await Promise.all([writing, writingFresh]);
      assert.deepEqual(await store.head(key), { size: 2048 });
      assert.deepEqual(await store.head(fresh), { size: 2048 });
    });

    it('leaves nothing behind when the body stream fails', { timeout }, async () => {
      const key = `${base}failed/obj`;
      async function* broken() {
        yield Buffer.alloc(1024);
        await Promise.resolve();
        throw new Error('client went away');
      }
      await assert.rejects(store.put(key, Readable.from(broken())));
      assert.equal(await store.head(key), null);
      assert.deepEqual(await collect(store.list(`${base}failed/`)), []);
    });

    it('uploads an object larger than 5 MiB in parts', { timeout }, async () => {
      const key = `${base}big/result.csv`;
      const size = 12 * 1024 * 1024 + 123;
      const { stream, hash } = patternStream(size);
      await store.upload(key, stream);
      assert.deepEqual(await store.head(key), { size });
      const got = createHash('sha256');
      for await (const chunk of await store.get(key)) got.update(chunk as Uint8Array);
      assert.equal(got.digest('hex'), hash);
    });

    it('lists and deletes by prefix', { timeout }, async () => {
      const p = `${base}prefix/`;
      for (const k of ['job/1', 'job/2', 'job/sub/3', 'jobs/4', 'other/5']) {
        await store.put(`${p}${k}`, Buffer.from(k));
      }
      assert.deepEqual(await collect(store.list(`${p}job/`)), [
        `${p}job/1`,
        `${p}job/2`,
        `${p}job/sub/3`,
      ]);
      assert.deepEqual(await collect(store.list(`${p}job`)), [
        `${p}job/1`,
        `${p}job/2`,
        `${p}job/sub/3`,
        `${p}jobs/4`,
      ]);
      await store.deletePrefix(`${p}job/`);
      assert.deepEqual(await collect(store.list(p)), [`${p}jobs/4`, `${p}other/5`]);
      await store.deletePrefix(`${p}nothing-here/`);
    });

    it(
      'aborts incomplete uploads started before a cutoff, and only under the prefix',
      { timeout },
      async () => {
        const p = `${base}incomplete/`;
        const key = `${p}obj`;
        const release = deferred();
        async function* hanging() {
          // More than one 5 MiB part, so S3 has a multipart upload in progress.
          yield Buffer.alloc(6 * 1024 * 1024, 1);
          await release.promise;
          yield Buffer.alloc(1024, 2);
        }
        const writing = store.upload(key, Readable.from(hanging()));
        writing.catch(() => undefined); // asserted below
        // Started after this cutoff: found and kept, once the backend shows it.
        const cutoff = new Date(Date.now() - 60_000);
        const deadline = Date.now() + 30_000;
        let seen = await store.abortIncompleteUploads(p, cutoff);
        while (seen.kept === 0 && Date.now() < deadline) {
          await sleep(50);
          seen = await store.abortIncompleteUploads(p, cutoff);
        }
        assert.deepEqual(seen, { aborted: 0, kept: 1 });
        assert.deepEqual(
          await store.abortIncompleteUploads(`${base}elsewhere/`, new Date(Date.now() + 60_000)),
          {
            aborted: 0,
            kept: 0,
          },
        );
        assert.deepEqual(await store.abortIncompleteUploads(p, new Date(Date.now() + 60_000)), {
          aborted: 1,
          kept: 0,
        });
        release.resolve();
        await assert.rejects(writing);
        assert.equal(await store.head(key), null);
        assert.deepEqual(await collect(store.list(p)), []);
        assert.deepEqual(await store.abortIncompleteUploads(p, new Date(Date.now() + 60_000)), {
          aborted: 0,
          kept: 0,
        });
        await assert.rejects(store.abortIncompleteUploads('../', new Date()), InvalidBlobKeyError);
      },
    );

    it('refuses keys that escape the root', { timeout }, async () => {
      for (const bad of ['../x', `${base}../../etc/passwd`, '/abs', 'a//b', 'a/./b', '', 'a\\b']) {
        await assert.rejects(store.put(bad, Buffer.from('x')), InvalidBlobKeyError, bad);
        await assert.rejects(store.get(bad), InvalidBlobKeyError, bad);
        await assert.rejects(store.head(bad), InvalidBlobKeyError, bad);
        await assert.rejects(store.delete(bad), InvalidBlobKeyError, bad);
      }
      await assert.rejects(store.deletePrefix('../'), InvalidBlobKeyError);
      await assert.rejects(collect(store.list('a/../../')), InvalidBlobKeyError);
    });
  });
}
