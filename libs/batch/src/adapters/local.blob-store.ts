import { randomUUID } from 'node:crypto';
import { access, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobNotFoundError,
  InvalidBlobKeyError,
  type BlobInfo,
  type BlobStore,
} from '../ports/blob-store.port';

/** Where half-written objects live until renamed into place (same filesystem → atomic rename). */
const PARTIAL_DIR = '.partial';

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

/**
 * BlobStore on a local directory (single-node mode; `<VERITY_HOME>/blobs`). Writes go to a
 * temp file under `.partial/` and are renamed into place, so a reader never sees a partial
 * object; a killed writer leaves only a temp file there, never a visible key.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const dest = this.pathOf(key);
    const tmp = join(this.root, PARTIAL_DIR, `${randomUUID()}.tmp`);
    await mkdir(dirname(tmp), { recursive: true });
    // Open before streaming: with a lazily opened stream, a body failing early could let the
    // open land after our clean-up and leave a stray temp file.
    const file = await open(tmp, 'wx');
    try {
      if (Buffer.isBuffer(body)) {
        await file.writeFile(body);
        await file.close();
      } else {
        await pipeline(body, file.createWriteStream()); // closes the handle when done or failed
      }
      await this.moveIntoPlace(tmp, dest);
    } catch (err) {
      await file.close().catch(() => undefined);
      await rm(tmp, { force: true });
      throw err;
    }
  }

  upload(key: string, body: Readable): Promise<void> {
    return this.put(key, body);
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    try {
      // Open first so "absent" is a rejected promise, not a stream error later.
      const handle = await open(path, 'r');
      return handle.createReadStream();
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'EISDIR')) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      const s = await stat(path);
      if (!s.isFile()) return;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return;
      throw err;
    }
    await rm(path, { force: true });
    await this.pruneEmptyDirs(dirname(path));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    const keys: string[] = [];
    for await (const key of this.list(prefix)) keys.push(key);
    for (const key of keys) await this.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix);
    // Walk only the deepest directory the prefix names, then filter by the full prefix.
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
    yield* this.walk(dirKey === '' ? this.root : join(this.root, ...dirKey.split('/')), prefix);
  }

  async ping(): Promise<void> {
    const partial = join(this.root, PARTIAL_DIR);
    await mkdir(partial, { recursive: true });
    await access(partial, 2 /* W_OK */);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async *walk(dir: string, prefix: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue; // the temp area and anything not ours
      const path = join(dir, entry.name);
      const key = relative(this.root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(path, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        yield key;
      }
    }
  }

  /** A concurrent delete may prune the parent between mkdir and rename: retry a few times. */
  private async moveIntoPlace(tmp: string, dest: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      await mkdir(dirname(dest), { recursive: true });
      try {
        await rename(tmp, dest);
        return;
      } catch (err) {
        if (!isErrno(err, 'ENOENT') || tries >= 3) throw err;
      }
    }
  }

  private async pruneEmptyDirs(dir: string): Promise<void> {
    while (dir !== this.root && dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      dir = dirname(dir);
    }
  }

  /** Validated key → path, with a second check that the path stays under the root. */
  private pathOf(key: string): string {
    assertBlobKey(key);
    const path = resolve(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new InvalidBlobKeyError(key);
    return path;
  }
}
