import type { BatchJob } from '../index';

/** A job's state in words: a job the account cancelled reads `cancelled`, not `failed`. */
export function jobState(job: BatchJob): string {
  return job.status === 'failed' && job.error?.code === 'cancelled' ? 'cancelled' : job.status;
}

const MAX_FILE_NAME = 40;
const count = (n: number) => n.toLocaleString('en');

function fileName(job: BatchJob): string {
  const name = job.file_name ?? '–';
  return name.length <= MAX_FILE_NAME ? name : `${name.slice(0, MAX_FILE_NAME - 1)}…`;
}

/** `2026-11-28T00:12:57.123Z` → `2026-11-28 00:12:57` (UTC, as the header says). */
function created(job: BatchJob): string {
  const at = new Date(job.created_at);
  return Number.isNaN(at.getTime())
    ? job.created_at
    : at.toISOString().slice(0, 19).replace('T', ' ');
}

/** The jobs as a table for people, one line each, columns padded to their widest cell. */
export function jobTable(jobs: readonly BatchJob[]): string {
  const header = ['ID', 'FILE', 'TYPE', 'STATUS', 'ROWS', 'CREATED (UTC)'];
  const rows = jobs.map((job) => [
    job.id,
    fileName(job),
    job.type,
    jobState(job),
    `${count(job.processed_rows)}/${count(job.total_rows)}`,
    created(job),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((cells) =>
      cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '),
    )
    .join('\n');
}

/** A word as the shell reads it: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w.:/@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The `batch list` command that shows the page after `cursor`, with the same filters. */
export function nextPageCommand(
  verity: string,
  cursor: string,
  options: { status?: string; limit?: string; url?: string },
): string {
  const args = ['batch', 'list', '--cursor', cursor];
  if (options.status !== undefined) args.push('--status', options.status);
  if (options.limit !== undefined) args.push('--limit', options.limit);
  if (options.url !== undefined) args.push('--url', options.url);
  return `${verity} ${args.map(shellWord).join(' ')}`;
}
