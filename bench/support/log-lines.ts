import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** How many lines of a log file hold `needle`, and the file's size. */
export interface LogLineCount {
  lines: number;
  bytes: number;
}

/**
 * Counts the lines of `path` that hold `needle`, reading the file as a stream: a benchmark's
 * access log outgrows the longest string V8 can hold (~512 MiB) on a fast machine, so it is
 * never read whole.
 */
export async function countLogLines(path: string, needle: string): Promise<LogLineCount> {
  const file = createReadStream(path, { encoding: 'utf8' });
  let lines = 0;
  for await (const line of createInterface({ input: file, crlfDelay: Infinity })) {
    if (line.includes(needle)) lines++;
  }
  return { lines, bytes: file.bytesRead };
}
