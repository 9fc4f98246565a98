import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ASN_INDEX_FORMAT, AsnIndex } from './asn-index';

/**
 * Cache key of a set of ASN CSV files: each file's absolute path, size and mtime, the
 * version of the npm package holding them (when there is one) and the index format. Any
 * change to the source (an `npm update`, a new BYO file) yields a new key and a rebuild.
 */
export async function asnSourceKey(files: readonly string[]): Promise<string> {
  const parts: string[] = [`format=${ASN_INDEX_FORMAT}`];
  for (const f of files) {
    const info = await stat(f);
    parts.push(`${resolve(f)}|${info.size}|${info.mtimeMs}`);
  }
  const pkg = await readFile(join(dirname(resolve(files[0] ?? '.')), 'package.json'), 'utf8').catch(
    () => null,
  );
  if (pkg !== null) {
    const version = (JSON.parse(pkg) as { version?: unknown }).version;
    parts.push(`package=${typeof version === 'string' ? version : '?'}`);
  }
  return parts.join('\n');
}

/**
 * Where an index may be cached, in order of preference. For the npm-installed default data,
 * `node_modules/.cache/verity` (the usual tool cache spot) comes first: it is shared by every
 * VERITY_HOME using that install, so short-lived homes (tests, e2e runs) hit it too. Then
 * `<IP_DATA_DIR>/.cache`, which always works for a writable data directory.
 */
export function asnCacheDirs(sourcePath: string, dataDir: string): string[] {
  const abs = resolve(sourcePath);
  const dirs: string[] = [];
  const marker = `${sep}node_modules${sep}`;
  const at = abs.lastIndexOf(marker);
  if (at >= 0) dirs.push(join(abs.slice(0, at + marker.length), '.cache', 'verity'));
  dirs.push(join(dataDir, '.cache'));
  return dirs;
}

/** File name of the index for a source path (the key inside the file says which version). */
export function asnCacheName(sourcePath: string): string {
  const h = createHash('sha256').update(resolve(sourcePath)).digest('hex').slice(0, 16);
  return `asn-${h}.idx`;
}

/** The first cached index matching the key, with where it came from; null when none does. */
export async function readCachedAsnIndex(
  dirs: readonly string[],
  name: string,
  key: string,
): Promise<{ index: AsnIndex; path: string } | null> {
  for (const dir of dirs) {
    const path = join(dir, name);
    const bytes = await readFile(path).catch(() => null);
    if (bytes === null) continue;
    const index = AsnIndex.fromBytes(bytes, key);
    if (index !== null) return { index, path };
  }
  return null;
}

/**
 * Writes the index to the first directory that accepts it (temporary file + rename, so a
 * concurrent reader sees the old file or the new one); null when none is writable, which
 * only costs the next start a rebuild.
 */
export async function writeCachedAsnIndex(
  dirs: readonly string[],
  name: string,
  bytes: Uint8Array,
): Promise<string | null> {
  for (const dir of dirs) {
    const path = join(dir, name);
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(tmp, bytes);
      await rename(tmp, path);
      return path;
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }
  return null;
}
