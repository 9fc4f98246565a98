import { copyFile, mkdir, readFile, rename, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** data/ip/SNAPSHOT.json: each bundled file and the date its upstream snapshot was taken. */
interface SnapshotManifest {
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Copies bundled snapshot files that the data directory lacks, never overwriting a file there
 * (it may be newer, from `data update`). The copy's mtime is set to the snapshot date so
 * dataStatus() reports the data's real age, not the copy's.
 */
export async function seedDataDir(dataDir: string, bundleDir: string | null): Promise<number> {
  if (bundleDir === null) return 0;
  const manifest = JSON.parse(
    await readFile(join(bundleDir, 'SNAPSHOT.json'), 'utf8'),
  ) as SnapshotManifest;
  let copied = 0;
  for (const [file, date] of Object.entries(manifest.files)) {
    const target = join(dataDir, file);
    if (await exists(target)) continue;
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.seed.tmp`;
    await copyFile(join(bundleDir, file), tmp);
    const when = new Date(date);
    if (!Number.isNaN(when.getTime())) await utimes(tmp, when, when);
    await rename(tmp, target);
    copied++;
  }
  return copied;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
