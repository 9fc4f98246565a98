import { rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StartupError, errnoCode } from '@verity/common';
import { makeDir, notWritable } from '@verity/database';

/** What a running `verity start` records in its data directory. */
interface LockRecord {
  pid: number;
  /** Null until the API listens. */
  address: string | null;
}

/** The data directory's lock, held by this process until it exits. */
export interface DataDirLock {
  /** Records the address the API listens on, for a second start to name. */
  publish(address: string): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM'; // alive, another user's
  }
}

async function readLock(path: string): Promise<LockRecord | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  try {
    return text === null ? null : (JSON.parse(text) as LockRecord);
  } catch {
    return null; // torn write of a process that died while writing: stale
  }
}

/**
 * Takes `<VERITY_HOME>/verity.lock` (created exclusively: of two starts, one wins), or refuses
 * with the address of the Verity that holds it. A lock whose process is gone (killed, the
 * machine rebooted) is stale and taken over. The file is removed when this process exits,
 * however it exits short of SIGKILL.
 */
export async function lockDataDir(home: string): Promise<DataDirLock> {
  const dir = resolve(home);
  const path = join(dir, 'verity.lock');
  await makeDir(dir);
  const write = (record: LockRecord, flag: 'wx' | 'w') =>
    writeFile(path, JSON.stringify(record) + '\n', { flag, mode: 0o644 });
  for (;;) {
    try {
      await write({ pid: process.pid, address: null }, 'wx');
      break;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw notWritable(dir, error);
    }
    const holder = await readLock(path);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new StartupError(
        'data_dir_locked',
        holder.address
          ? `Verity is already running on this data directory (${dir}) at ${holder.address} (pid ${holder.pid}): use that one, stop it first, or set VERITY_HOME to another directory.`
          : `Another Verity (pid ${holder.pid}) is starting on this data directory (${dir}): wait for it, stop it, or set VERITY_HOME to another directory.`,
      );
    }
    await rm(path, { force: true });
  }
  process.on('exit', () => rmSync(path, { force: true }));
  return {
    publish: (address) => write({ pid: process.pid, address }, 'w'),
  };
}
