import { stat } from 'node:fs/promises';

/**
 * The newest modification time of the files, exact (`mtimeMs` keeps the fraction of a
 * millisecond that a Date would round away). A source takes it before it reads the files, so
 * a file replaced during the read shows as changed at the next poll.
 */
export async function newestMtimeMs(files: readonly string[]): Promise<number> {
  let newest = 0;
  for (const file of files) newest = Math.max(newest, (await stat(file)).mtimeMs);
  return newest;
}
