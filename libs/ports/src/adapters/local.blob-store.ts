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
  type IncompleteUploads,
} from '../ports/blob-store.port';

/** Where half-written objects live until renamed into place (same filesystem → atomic rename). */
const PARTIAL_DIR = '.partial';
/** Longest file name most filesystems take. */
const MAX_NAME_BYTES = 255;

/**
 * A temp file's name records when the write started and, when it fits, its key (base64url),
 * so incomplete writes can be found by prefix and age like S3's multipart uploads:
 * `<start ms>.<uuid>.<key>.tmp`, or `<start ms>.<uuid>.tmp` for a key too long to fit (found
 * only by the empty prefix).
 */
function partialName(key: string): string {
  const encoded = Buffer.from(key, 'utf8').toString('base64url');
  const name = `${Date.now()}.${randomUUID()}.${encoded}.tmp`;
  return name.length <= MAX_NAME_BYTES ? name : `${Date.now()}.${randomUUID()}.tmp`;
}

/** The start time and key (null when not recorded) of a temp file; null if not one of ours. */
function parsePartialName(name: string): { startedMs: number; key: string | null } | null {
  const match = /^(\d+)\.[0-9a-f-]{36}(?:\.([A-Za-z0-9_-]+))?\.tmp$/.exec(name);
  if (!match) return null;
  const key = match[2] === undefined ? null : Buffer.from(match[2], 'base64url').toString('utf8');
  return { startedMs: Number(match[1]), key };
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

/**
 * Creating a key's folders and renaming into them must not interleave with pruning empty
 * folders: a prune between a writer's mkdir and its rename removes the folder the rename
 * needs (ENOENT). Both run under one lock per root directory, shared by every store on that
 * root in the process (the local store is the single-process mode). Each holds it only for a
 * few metadata calls, never while data is written.
 */
const folderLocks = new Map<string, { tail: Promise<void> }>();

function folderLock(root: string): { tail: Promise<void> } {
  let lock = folderLocks.get(root);
  if (!lock) {
    lock = { tail: Promise.resolve() };
    folderLocks.set(root, lock);
  }
  return lock;
}

export interface LocalBlobStoreOptions {
  /** A temp file untouched for this long belongs to no live writer and is deleted. */
  partialMaxAgeMs?: number;
  /** How often orphaned temp files are looked for (also once at start). */
  sweepIntervalMs?: number;
}

/**
 * BlobStore on a local directory (single-node mode; `<VERITY_HOME>/blobs`). Writes go to a
 * temp file under `.partial/` and are renamed into place, so a reader never sees a partial
 * object; a killed writer leaves only a temp file there, never a visible key.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;
  private readonly lock: { tail: Promise<void> };
  private readonly partialMaxAgeMs: number;
  private readonly sweeper: NodeJS.Timeout;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(root: string, options: LocalBlobStoreOptions = {}) {
    this.root = resolve(root);
    this.lock = folderLock(this.root);
    // Writers append continuously (an idle upload is cut after BODY_IDLE_TIMEOUT_MS), so an
    // hour without a write means the process that owned the file died mid-upload.
    this.partialMaxAgeMs = options.partialMaxAgeMs ?? 3_600_000;
    const every = options.sweepIntervalMs ?? 600_000;
    this.sweeper = setInterval(() => this.sweepSoon(), every);
    this.sweeper.unref();
    this.sweepSoon();
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const dest = this.pathOf(key);
    const tmp = join(this.root, PARTIAL_DIR, partialName(key));
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

  async abortIncompleteUploads(prefix: string, startedBefore: Date): Promise<IncompleteUploads> {
    assertBlobPrefix(prefix);
    const out = { aborted: 0, kept: 0 };
    const dir = join(this.root, PARTIAL_DIR);
    for (const name of await this.partialNames()) {
      const partial = parsePartialName(name);
      if (!partial || !(prefix === '' || partial.key?.startsWith(prefix))) continue;
      if (partial.startedMs >= startedBefore.getTime()) {
        out.kept++;
        continue;
      }
      // A writer still running then fails at its rename: no object appears.
      await rm(join(dir, name), { force: true });
      out.aborted++;
    }
    return out;
  }

  async ping(): Promise<void> {
    const partial = join(this.root, PARTIAL_DIR);
    await mkdir(partial, { recursive: true });
    await access(partial, 2 /* W_OK */);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweeping;
  }

  private sweepSoon(): void {
    this.sweeping = this.sweeping.then(() => this.sweepPartials()).catch(() => undefined);
  }

  /** Deletes temp files under `.partial/` that no writer has touched for `partialMaxAgeMs`. */
  private async sweepPartials(): Promise<void> {
    const dir = join(this.root, PARTIAL_DIR);
    const names = await this.partialNames();
    const cutoff = Date.now() - this.partialMaxAgeMs;
    for (const name of names) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (info?.isFile() && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }

  /** Names of the temp files (none before the first write). */
  private async partialNames(): Promise<string[]> {
    try {
      return await readdir(join(this.root, PARTIAL_DIR));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return [];
      throw err;
    }
  }

  /** Runs `fn` while no other folder creation or pruning on this root runs. */
  private async withFolders<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.tail.then(fn);
    this.lock.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
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

  private moveIntoPlace(tmp: string, dest: string): Promise<void> {
    return this.withFolders(async () => {
      await mkdir(dirname(dest), { recursive: true });
      await rename(tmp, dest);
    });
  }

  private pruneEmptyDirs(dir: string): Promise<void> {
    return this.withFolders(async () => {
      while (dir !== this.root && dir.startsWith(this.root + sep)) {
        try {
          await rmdir(dir);
        } catch {
          return; // not empty (or already gone): stop climbing
        }
        dir = dirname(dir);
      }
    });
  }

  /** Validated key → path, with a second check that the path stays under the root. */
  private pathOf(key: string): string {
    assertBlobKey(key);
    const path = resolve(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new InvalidBlobKeyError(key);
    return path;
  }
}
