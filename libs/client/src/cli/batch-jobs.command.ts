import {
  BATCH_LIST_MAX,
  BATCH_LIST_STATUSES,
  resultFileName,
  type BatchJobList,
  type BatchListStatus,
} from '@verity/contracts/wire';
import type { BatchJob } from '../index';
import { invocation } from './invocation';
import { jobTable, nextPageCommand } from './job-list';
import { connect, one, parse } from './options';
import { printResult } from './output';
import { UsageError } from './usage.error';

export const LIST_USAGE = 'verity batch list [--status S] [--limit N] [--cursor C] [--all]';
export const CANCEL_USAGE = 'verity batch cancel ID';

function statusOf(value: string | undefined): BatchListStatus | undefined {
  if (value === undefined) return undefined;
  const status = value as BatchListStatus;
  if (!BATCH_LIST_STATUSES.includes(status))
    throw new UsageError(
      `--status must be one of ${BATCH_LIST_STATUSES.join(', ')} (failed includes cancelled)\nusage: ${LIST_USAGE}`,
    );
  return status;
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!(/^\d+$/.test(value) && limit >= 1 && limit <= BATCH_LIST_MAX))
    throw new UsageError(`--limit must be a whole number from 1 to ${BATCH_LIST_MAX}`);
  return limit;
}

/** `verity batch list`: a page of the account's jobs (or every page with --all), newest first. */
export async function listCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {
    status: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
    all: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`usage: ${LIST_USAGE}`);
  if (values.all && values.cursor !== undefined)
    throw new UsageError(`--all lists every job from the newest: it takes no --cursor`);
  const status = statusOf(values.status);
  const limit = limitOf(values.limit);
  const { verity, json } = connect(values);
  let page: BatchJobList;
  if (values.all) {
    const data: BatchJob[] = [];
    for await (const job of verity.batch.listAll({ status, pageSize: limit })) data.push(job);
    page = { data, next_cursor: null };
  } else {
    page = await verity.batch.list({ status, limit, cursor: values.cursor });
  }
  if (json) return printResult(page, true);
  const lines: string[] = [];
  if (page.data.length === 0)
    lines.push(`no ${status === undefined ? '' : `${status} `}batch jobs`);
  else lines.push(jobTable(page.data));
  if (page.next_cursor !== null)
    lines.push(
      '',
      'more jobs: the next page, or --all for every one:',
      `  ${nextPageCommand(invocation(), page.next_cursor, {
        status: values.status,
        limit: values.limit,
        url: values.url,
      })}`,
    );
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * `verity batch cancel ID`: stops a queued or processing job and refunds its unprocessed rows.
 * A job already cancelled is reported as such (exit 0); a done job is the server's 422.
 */
export async function cancelCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {});
  const id = one(positionals, 'a batch job id', CANCEL_USAGE);
  const { verity, json, testKey } = connect(values);
  const before = await verity.batch.get(id);
  const already = before.status === 'failed' && before.error?.code === 'cancelled';
  const job = already ? before : await verity.batch.cancel(id);
  if (json) return printResult(job, true);
  const left = job.total_rows - job.processed_rows;
  const rows = `${job.processed_rows.toLocaleString('en')} of ${job.total_rows.toLocaleString('en')} rows were processed`;
  const refund = testKey
    ? 'a test job: nothing was charged'
    : `${left.toLocaleString('en')} ${left === 1 ? 'row' : 'rows'} refunded`;
  const partial =
    job.partial_result_url === null
      ? ''
      : `\nits scored rows: ${invocation()} batch download ${id}  (writes ${resultFileName(job.file_name, id, true)})`;
  process.stdout.write(
    `${already ? `${id} was already cancelled` : `cancelled ${id}`}: ${rows}; ${refund}${partial}\n`,
  );
}
