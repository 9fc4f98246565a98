import type { BatchJob } from '../index';
import { jobState } from './job-list';

/**
 * Rows per second and the time left, from the first poll to the latest one that found the job
 * still running. A poll that finds the job ended measures nothing: the job ended at some moment
 * since the poll before, so its rows over the time between polls would only be a lower bound
 * (a 200-row job scored in a blink, polled every 3 s, is no "65 rows/s"). The ended job keeps
 * the rate measured while it ran, or none.
 */
export class Throughput {
  private first: { at: number; rows: number } | undefined;
  private rate: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  sample(job: BatchJob): { rowsPerSecond: number | null; etaSeconds: number | null } {
    const at = this.now();
    const running = job.status === 'queued' || job.status === 'processing';
    if (running) {
      if (this.first === undefined || job.processed_rows < this.first.rows)
        this.first = { at, rows: job.processed_rows };
      const seconds = (at - this.first.at) / 1000;
      const rows = job.processed_rows - this.first.rows;
      if (seconds > 0 && rows > 0) this.rate = rows / seconds;
    }
    const rowsPerSecond = this.rate;
    if (rowsPerSecond === null || !running) return { rowsPerSecond, etaSeconds: null };
    return {
      rowsPerSecond,
      etaSeconds: Math.ceil((job.total_rows - job.processed_rows) / rowsPerSecond),
    };
  }
}

const count = (n: number) => Math.round(n).toLocaleString('en');

function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  return m < 60
    ? `${m}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function percent(job: BatchJob): number {
  if (job.status === 'done') return 100;
  return job.total_rows === 0 ? 0 : Math.floor((job.processed_rows / job.total_rows) * 100);
}

/** The words after the bar: `5,000/10,000 rows  1,234 rows/s  ETA 4s`. */
function stats(job: BatchJob, rate: ReturnType<Throughput['sample']>): string {
  const speed = rate.rowsPerSecond === null ? '– rows/s' : `${count(rate.rowsPerSecond)} rows/s`;
  const eta = job.status === 'done' ? 'done' : `ETA ${duration(rate.etaSeconds)}`;
  return `${count(job.processed_rows)}/${count(job.total_rows)} rows  ${speed}  ${eta}`;
}

/** One terminal line: `[██████░░░░░░]  50%  5,000/10,000 rows  1,234 rows/s  ETA 4s`. */
export function barLine(
  job: BatchJob,
  rate: ReturnType<Throughput['sample']>,
  columns: number,
): string {
  const pct = percent(job);
  const tail = `${String(pct).padStart(3)}%  ${stats(job, rate)}`;
  const width = Math.max(10, Math.min(40, columns - tail.length - 4));
  const filled = Math.round((pct / 100) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${tail}`;
}

/** `job job_… (signups.csv, 200 rows)`: the line above a terminal's bar. */
export function jobHeading(job: BatchJob): string {
  const rows = `${count(job.total_rows)} ${job.total_rows === 1 ? 'row' : 'rows'}`;
  return `job ${job.id} (${job.file_name === null ? '' : `${job.file_name}, `}${rows})`;
}

/** One log line per poll, for pipes and CI logs. */
export function plainLine(job: BatchJob, rate: ReturnType<Throughput['sample']>): string {
  return `${job.id} ${jobState(job)} ${percent(job)}% ${stats(job, rate)}`;
}

/** Where `batch run` reports progress: a bar redrawn in place on a terminal, else plain lines. */
export interface ProgressView {
  update(job: BatchJob): void;
  /** Ends the bar's line so later output starts on a fresh one. */
  finish(): void;
}

export function progressView(
  stream: NodeJS.WriteStream,
  now: () => number = Date.now,
): ProgressView {
  const throughput = new Throughput(now);
  if (!stream.isTTY) {
    return {
      update: (job) => stream.write(plainLine(job, throughput.sample(job)) + '\n'),
      finish: () => undefined,
    };
  }
  let drawn = false;
  let named: string | undefined;
  return {
    update(job) {
      // The job's id once, on its own line above the bar: what `batch get` and a support
      // request need, and what the plain lines carry on each line.
      if (named !== job.id) {
        stream.write(`${drawn ? '\n' : ''}${jobHeading(job)}\n`);
        named = job.id;
      }
      // \r back to the start of the line, ESC[2K clears it: the bar redraws in place.
      stream.write(`\r\x1b[2K${barLine(job, throughput.sample(job), stream.columns || 80)}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
