import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BATCH_TYPES, resultFileName, type BatchType } from '@verity/contracts/wire';
import { BatchFailedError, type BatchJob } from '../index';
import { UsageError } from './usage.error';
import { CANCEL_USAGE, LIST_USAGE, cancelCommand, listCommand } from './batch-jobs.command';
import { InterruptedError } from './exit-codes';
import { invocation } from './invocation';
import { connect, parse } from './options';
import { printResult } from './output';
import { progressView } from './progress';
import { uploadOptions } from './upload-options';
import { onlyOf, summaryLine } from './verdicts';

const USAGE = `usage: verity batch run FILE --type email|phone|ip [--column C] [--header true|false] [--fields spec|all]
                        [--country CC] [--country-column C]
                        [--out FILE] [--only V,V] [--webhook URL] [--interval S] [--timeout S]
       verity batch get ID
       verity batch download ID [--out FILE] [--only V,V] [--interval S] [--timeout S]   (a failed job: its scored rows)
       ${LIST_USAGE}
       ${CANCEL_USAGE}
Without --column, FILE has one value per line; a first line that is a column name (email,
phone, ip and the usual spellings) and not a valid value is a header, skipped and free.
--column names the column of a multi-column CSV to validate (a header name, or a 1-based
index); the result keeps every input column and appends the results. --header false: the
first line is a row (default true with a name). --fields all adds the result columns the
single calls have. Phone jobs: --country GB parses every number written without its country
code as a number of that country; --country-column names the column (name or 1-based index)
holding each row's country, an empty cell falling back to --country. --out defaults to
<FILE stem>-results.csv next to FILE (batch download: <stem of the uploaded file>-results.csv,
the name the console's download has). --interval: seconds between polls, default 1 on a
terminal (the progress bar; the server updates progress about once a second), else 3. --only keeps the rows of those verdicts (email: deliverable, risky, undeliverable,
unknown; phone: valid, invalid; ip: vpn, proxy, tor, datacenter, clean, invalid). A finished
job's counts by verdict are printed after the file (and by batch get, as summary).`;

const WAIT_OPTIONS = {
  interval: { type: 'string' },
  timeout: { type: 'string' },
  only: { type: 'string' },
} as const;

/** The file written, and the finished job's summary on a second line. */
function written(
  job: BatchJob,
  file: { path: string; bytes: number },
  only: readonly string[] | undefined,
): string {
  const rows = `${job.total_rows.toLocaleString('en')} ${job.total_rows === 1 ? 'row' : 'rows'}`;
  const kept = only === undefined ? rows : `the ${only.join(', ')} rows of ${rows}`;
  const summary = summaryLine(job);
  return (
    `${file.path}  (${kept}, ${file.bytes.toLocaleString('en')} bytes)` +
    (summary === null ? '' : `\nsummary  ${summary}`)
  );
}

/** Between polls on a terminal unless --interval says otherwise. */
const TERMINAL_INTERVAL_MS = 1_000;

function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(Number.isFinite(n) && n > 0))
    throw new UsageError(`${flag} must be a number of seconds > 0`);
  return Math.round(n * 1000);
}

/** `<input stem>-results.csv` next to the input file. */
function defaultOut(file: string): string {
  return join(dirname(file), resultFileName(basename(file), basename(file)));
}

/** --interval, else a poll a second when the progress bar is drawn (the SDK's default else). */
function pollInterval(value: string | undefined): number | undefined {
  return seconds(value, '--interval') ?? (process.stderr.isTTY ? TERMINAL_INTERVAL_MS : undefined);
}

/** The input must be a readable file and the output's folder must exist, before anything is charged. */
async function checkPaths(file: string, out: string): Promise<void> {
  const input = await stat(file).catch((error: NodeJS.ErrnoException) => error);
  if (input instanceof Error)
    throw new UsageError(
      `${file}: ${input.code === 'ENOENT' ? 'no such file' : `cannot be read (${input.code})`}`,
    );
  if (!input.isFile()) throw new UsageError(`${file} is not a file`);
  const folder = await stat(dirname(out)).catch(() => null);
  if (folder === null || !folder.isDirectory())
    throw new UsageError(`${out}: the folder ${dirname(out)} does not exist`);
}

/** What a partial file is: the scored rows of a failed job, and why it failed. */
function partialNote(job: BatchJob): string {
  const rows = `${job.processed_rows.toLocaleString('en')} of ${job.total_rows.toLocaleString('en')} rows`;
  return `the ${rows} scored before the job ${job.error?.code === 'cancelled' ? 'was cancelled' : 'failed'}`;
}

function resumeHint(job: BatchJob, out: string): string {
  const verity = invocation();
  return (
    `stopped waiting; job ${job.id} keeps running on the server (it was not cancelled).\n` +
    `  ${verity} batch get ${job.id}\n` +
    `  ${verity} batch download ${job.id} --out ${out}\n` +
    `to cancel it instead (its unprocessed rows are refunded):\n` +
    `  ${verity} batch cancel ${job.id}`
  );
}

/**
 * Ctrl-C aborts `signal` instead of killing the process, so the command can say which job is
 * still running. The handler is removed when `work` ends.
 */
async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new InterruptedError('interrupted'));
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** `verity batch run|get|download|list|cancel`. */
export async function batchCommand(action: string | undefined, argv: string[]): Promise<void> {
  switch (action ?? '') {
    case 'run': {
      const { values, positionals } = parse(argv, {
        type: { type: 'string' },
        out: { type: 'string' },
        webhook: { type: 'string' },
        column: { type: 'string' },
        header: { type: 'string' },
        fields: { type: 'string' },
        country: { type: 'string' },
        'country-column': { type: 'string' },
        ...WAIT_OPTIONS,
      });
      if (positionals.length !== 1) throw new UsageError(USAGE);
      const type = values.type as BatchType;
      if (!BATCH_TYPES.includes(type))
        throw new UsageError(`--type must be one of ${BATCH_TYPES.join(', ')}\n${USAGE}`);
      const upload = uploadOptions(values);
      const only = onlyOf(values.only, type);
      const [file] = positionals;
      const out = values.out ?? defaultOut(file);
      await checkPaths(file, out);
      const intervalMs = pollInterval(values.interval);
      const timeoutMs = seconds(values.timeout, '--timeout');
      const { verity, json } = connect(values);
      const view = progressView(process.stderr);
      let created: BatchJob | undefined;
      try {
        const result = await interruptible((signal) =>
          verity.batch.run({
            type,
            file,
            webhookUrl: values.webhook,
            ...upload,
            to: out,
            only,
            intervalMs,
            timeoutMs,
            signal,
            // The first frame is the job as created (0 rows), whatever the first poll finds.
            onCreated: (job) => {
              created = job;
              view.update(job);
            },
            onProgress: (job) => view.update(job),
          }),
        );
        view.finish();
        return printResult(
          json
            ? { job: result.job, path: result.path, bytes: result.bytes }
            : written(result.job, result, only),
          json,
        );
      } catch (error) {
        view.finish();
        if (error instanceof InterruptedError)
          throw new InterruptedError(
            created
              ? resumeHint(created, out)
              : 'interrupted during the upload; no job id was received',
          );
        throw error;
      }
    }
    case 'get': {
      const { values, positionals } = parse(argv, {});
      if (positionals.length !== 1) throw new UsageError(USAGE);
      const { verity, json } = connect(values);
      return printResult(await verity.batch.get(positionals[0]), json);
    }
    case 'download': {
      const { values, positionals } = parse(argv, { out: { type: 'string' }, ...WAIT_OPTIONS });
      if (positionals.length !== 1) throw new UsageError(USAGE);
      const [id] = positionals;
      const only = onlyOf(values.only);
      const { verity, json } = connect(values);
      const view = progressView(process.stderr);
      let last: BatchJob | undefined;
      try {
        const [ended, file] = await interruptible(async (signal) => {
          // A job still running is waited for first, with the same progress as `batch run`.
          const job = await verity.batch
            .wait(id, {
              intervalMs: pollInterval(values.interval),
              timeoutMs: seconds(values.timeout, '--timeout'),
              signal,
              onProgress: (job) => {
                last = job;
                view.update(job);
              },
            })
            // A failed job that scored rows delivers them (partial_result_url).
            .catch((error: unknown) => {
              if (error instanceof BatchFailedError && error.job.partial_result_url !== null)
                return error.job;
              throw error;
            });
          const out = values.out ?? resultFileName(job.file_name, job.id, job.status !== 'done');
          return [job, await verity.batch.download(job, { to: out, only, signal })] as const;
        });
        view.finish();
        const summary = summaryLine(ended);
        return printResult(
          json
            ? { ...file, partial: ended.status !== 'done' }
            : `${file.path}  (${file.bytes.toLocaleString('en')} bytes` +
                (only === undefined ? '' : `; the ${only.join(', ')} rows`) +
                (ended.status === 'done' ? ')' : `; ${partialNote(ended)})`) +
                (summary === null ? '' : `\nsummary  ${summary}`),
          json,
        );
      } catch (error) {
        view.finish();
        if (error instanceof InterruptedError && last)
          throw new InterruptedError(
            resumeHint(last, values.out ?? resultFileName(last.file_name, last.id)),
          );
        throw error;
      }
    }
    case 'list':
      return listCommand(argv);
    case 'cancel':
      return cancelCommand(argv);
    default:
      throw new UsageError(USAGE);
  }
}
