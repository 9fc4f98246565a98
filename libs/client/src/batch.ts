import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import {
  BATCH_LIST_MAX,
  type BatchJob,
  type BatchJobList,
  type BatchResultFields,
  type BatchListStatus,
  type BatchType,
  type BatchVerdict,
} from '@verity/contracts/wire';
import { BatchFailedError, BatchTimeoutError, ForbiddenError, VerityClientError } from './errors';
import type { Transport } from './transport';
import { multipartBody, type BatchFile } from './upload';

/** The reference client's defaults: poll every 3 s, give up after 600 s. */
export const DEFAULT_POLL_INTERVAL_MS = 3_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

export interface BatchCreateParams {
  type: BatchType;
  file: BatchFile;
  /** Receives a signed POST when the job ends (see `webhooks.verify`). */
  webhookUrl?: string;
  /**
   * A multi-column file's column to validate: its header name, or a 1-based index. Without it
   * the file is single-column. The result keeps every input column and appends the results.
   */
  column?: string | number;
  /** With `column`: whether the first line is a header (never a row, never charged). */
  header?: boolean;
  /** `all` adds the result columns the single-call answers have; default `spec`. */
  fields?: BatchResultFields;
  /**
   * Phone jobs: the ISO 3166-1 alpha-2 country (`GB`) of every number written without its
   * country code. Same credits.
   */
  countryHint?: string;
  /**
   * Phone jobs, with `column`: the column holding each row's country, its header name or a
   * 1-based index. An empty cell falls back to `countryHint`.
   */
  countryColumn?: string | number;
  /** Sent as Idempotency-Key; one is generated when absent, so retries never create two jobs. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface BatchWaitOptions {
  /** Between two polls; default 3,000. */
  intervalMs?: number;
  /** Give up (BatchTimeoutError) after this long; default 600,000. The job keeps running. */
  timeoutMs?: number;
  /** Called with the job after every poll, the last one included. */
  onProgress?: (job: BatchJob) => void;
  /** Stops waiting (rejects with the signal's reason); the job keeps running. */
  signal?: AbortSignal;
}

export interface BatchDownloadOptions {
  /** Stream the CSV into this file (written as `<to>.part`, renamed when complete). */
  to?: string;
  /**
   * Only the rows of these verdicts (`only=`, e.g. `['deliverable', 'risky']`; BATCH_VERDICTS
   * lists each type's), in file order after the header; all rows when absent.
   */
  only?: readonly BatchVerdict[];
  signal?: AbortSignal;
}

export interface BatchRunParams extends BatchCreateParams, Omit<BatchWaitOptions, 'signal'> {
  /** Where to write the result CSV; without it the CSV is returned as a string. */
  to?: string;
  /** Download only the rows of these verdicts (BatchDownloadOptions.only). */
  only?: readonly BatchVerdict[];
  /** Called once the job exists, before waiting (e.g. to print its id). */
  onCreated?: (job: BatchJob) => void;
}

export interface BatchListParams {
  /** Jobs per page, 1 to 100; the server's default is 20. */
  limit?: number;
  /** `next_cursor` of the previous page; absent for the first (newest) page. */
  cursor?: string;
  /**
   * Only jobs in this state; `cancelled`: the failed jobs the account cancelled (`error.code`
   * cancelled), which `failed` lists too.
   */
  status?: BatchListStatus;
  signal?: AbortSignal;
}

export interface BatchListAllParams {
  status?: BatchListStatus;
  /** Jobs fetched per request, 1 to 100; default 100. */
  pageSize?: number;
  signal?: AbortSignal;
}

/** A result file written to disk. */
export interface DownloadedFile {
  path: string;
  bytes: number;
}

interface Clock {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/** Batch jobs: upload a CSV, poll it, download the result. */
export class BatchResource {
  constructor(
    private readonly transport: Transport,
    private readonly clock: Clock,
  ) {}

  /**
   * Uploads a CSV (1 credit per row) and returns the queued job: a single-column file, or with
   * `column` a multi-column one (its header line is never charged).
   * @example const job = await verity.batch.create({ type: 'email', file: 'emails.csv' });
   * @example const job = await verity.batch.create({ type: 'email', file: 'crm.csv', column: 'email', fields: 'all' });
   * @example const job = await verity.batch.create({ type: 'phone', file: 'leads.csv', column: 'phone', countryColumn: 'country', countryHint: 'GB' });
   */
  async create(params: BatchCreateParams): Promise<BatchJob> {
    return this.transport.json<BatchJob>({
      method: 'POST',
      url: '/v1/batch',
      upload: await multipartBody(uploadFields(params), params.file),
      headers: { 'idempotency-key': params.idempotencyKey ?? randomUUID() },
      // The Idempotency-Key makes a repeat return the same job, charged once.
      idempotent: true,
      signal: params.signal,
    });
  }

  /**
   * The job's current state; `result_url` is freshly signed when it is done.
   * @example const { status, processed_rows } = await verity.batch.get('job_…');
   */
  get(id: string, options: { signal?: AbortSignal } = {}): Promise<BatchJob> {
    return this.transport.json<BatchJob>({
      method: 'GET',
      url: `/v1/batch/${encodeURIComponent(id)}`,
      idempotent: true,
      signal: options.signal,
    });
  }

  /**
   * A page of the account's jobs, newest first; pass `next_cursor` as `cursor` for the next.
   * @example const { data, next_cursor } = await verity.batch.list({ limit: 50, status: 'failed' });
   */
  list(params: BatchListParams = {}): Promise<BatchJobList> {
    const query = new URLSearchParams();
    if (params.limit !== undefined) query.set('limit', String(params.limit));
    if (params.cursor !== undefined) query.set('cursor', params.cursor);
    if (params.status !== undefined) query.set('status', params.status);
    const search = query.toString();
    return this.transport.json<BatchJobList>({
      method: 'GET',
      url: search === '' ? '/v1/batch' : `/v1/batch?${search}`,
      idempotent: true,
      signal: params.signal,
    });
  }

  /**
   * Every job of the account, newest first, fetched a page at a time as the loop asks.
   * @example for await (const job of verity.batch.listAll({ status: 'done' })) console.log(job.id);
   */
  async *listAll(params: BatchListAllParams = {}): AsyncGenerator<BatchJob, void, undefined> {
    const { status, signal } = params;
    const limit = params.pageSize ?? BATCH_LIST_MAX;
    let cursor: string | undefined;
    do {
      const page = await this.list({ limit, cursor, status, signal });
      yield* page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * Cancels a queued or processing job: it ends `failed` with `error.code` cancelled and its
   * unprocessed rows are refunded. Cancelling a cancelled job answers the same job; a done
   * job is UnprocessableError, another account's NotFoundError.
   * @example const job = await verity.batch.cancel('job_…'); // job.error?.code === 'cancelled'
   */
  cancel(id: string, options: { signal?: AbortSignal } = {}): Promise<BatchJob> {
    return this.transport.json<BatchJob>({
      method: 'DELETE',
      url: `/v1/batch/${encodeURIComponent(id)}`,
      // The server answers a repeat with the same job, refunding once.
      idempotent: true,
      signal: options.signal,
    });
  }

  /**
   * Polls until the job is done and returns it; throws BatchFailedError when it fails and
   * BatchTimeoutError after `timeoutMs`.
   * @example const done = await verity.batch.wait(job.id, { onProgress: (j) => console.log(j.processed_rows) });
   */
  async wait(id: string, options: BatchWaitOptions = {}): Promise<BatchJob> {
    const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    const deadline = this.clock.now() + timeoutMs;
    for (;;) {
      const job = await this.get(id, { signal: options.signal });
      options.onProgress?.(job);
      if (job.status === 'done') return job;
      if (job.status === 'failed') throw new BatchFailedError(job);
      const left = deadline - this.clock.now();
      if (left <= 0) throw new BatchTimeoutError(job, timeoutMs);
      await this.clock.sleep(Math.min(intervalMs, left), options.signal);
    }
  }

  /**
   * Downloads the result CSV of a done job, or the scored rows of a failed one
   * (`partial_result_url`: a cancelled job's rows scored before the cancel). An expired link
   * (403) is renewed once by fetching the job again, which signs a fresh one.
   * @example await verity.batch.download(job, { to: 'results.csv' });
   */
  download(
    job: BatchJob | string,
    options: BatchDownloadOptions & { to: string },
  ): Promise<DownloadedFile>;
  download(job: BatchJob | string, options?: Omit<BatchDownloadOptions, 'to'>): Promise<string>;
  async download(
    jobOrId: BatchJob | string,
    options: BatchDownloadOptions = {},
  ): Promise<DownloadedFile | string> {
    const { signal, to, only } = options;
    const id = typeof jobOrId === 'string' ? jobOrId : jobOrId.id;
    let job = typeof jobOrId === 'string' ? await this.get(id, { signal }) : jobOrId;
    let renewed = typeof jobOrId === 'string';
    for (;;) {
      const url = job.result_url ?? job.partial_result_url;
      if (url === null) {
        if (!renewed) {
          [job, renewed] = [await this.get(id, { signal }), true];
          continue;
        }
        throw new VerityClientError(
          job.status === 'failed'
            ? `batch job ${id} failed before any row was scored: there is nothing to download`
            : `batch job ${id} is ${job.status}: there is no result yet`,
        );
      }
      let answer;
      try {
        answer = await this.transport.send({
          method: 'GET',
          url: only === undefined ? url : withOnly(url, only),
          anonymous: true,
          idempotent: true,
          headers: { accept: 'text/csv' },
          signal,
        });
      } catch (error) {
        if (!(error instanceof ForbiddenError) || renewed) throw error;
        [job, renewed] = [await this.get(id, { signal }), true];
        continue;
      }
      try {
        if (to === undefined) return await answer.response.text();
        return await writeFile(answer.response, to, signal);
      } finally {
        answer.release();
      }
    }
  }

  /**
   * create + wait + download in one call.
   * @example const { job, path } = await verity.batch.run({ type: 'email', file: 'emails.csv', to: 'results.csv' });
   */
  run(params: BatchRunParams & { to: string }): Promise<{ job: BatchJob } & DownloadedFile>;
  run(params: BatchRunParams): Promise<{ job: BatchJob; csv: string }>;
  async run(
    params: BatchRunParams,
  ): Promise<({ job: BatchJob } & DownloadedFile) | { job: BatchJob; csv: string }> {
    const created = await this.create(params);
    params.onCreated?.(created);
    const job = await this.wait(created.id, params);
    const { signal, to, only } = params;
    if (to !== undefined) return { job, ...(await this.download(job, { to, only, signal })) };
    return { job, csv: await this.download(job, { only, signal }) };
  }
}

/** A download link with `only=`: the signature stays as signed (only narrows what it grants). */
function withOnly(resultUrl: string, only: readonly BatchVerdict[]): string {
  const url = new URL(resultUrl);
  url.searchParams.set('only', only.join(','));
  return url.toString();
}

/** The form fields of POST /v1/batch; the optional ones only when given. */
function uploadFields(params: BatchCreateParams): Record<string, string> {
  const fields: Record<string, string> = { type: params.type };
  if (params.webhookUrl !== undefined) fields.webhook_url = params.webhookUrl;
  const { column, countryColumn } = params;
  if (column !== undefined) fields.column = columnField(column, 'column');
  if (params.header !== undefined) fields.header = String(params.header);
  if (params.fields !== undefined) fields.fields = params.fields;
  if (params.countryHint !== undefined) fields.country_hint = params.countryHint;
  if (countryColumn !== undefined)
    fields.country_column = columnField(countryColumn, 'countryColumn');
  return fields;
}

/** A column as the form sends it: a header name, or a 1-based index. */
function columnField(column: string | number, name: string): string {
  if (typeof column === 'number' && !(Number.isInteger(column) && column >= 1))
    throw new TypeError(`${name} must be a header name or a 1-based index, got ${column}`);
  return String(column);
}

async function writeFile(
  response: Response,
  to: string,
  signal: AbortSignal | undefined,
): Promise<DownloadedFile> {
  if (response.body === null) throw new VerityClientError('download answered without a body');
  const partial = `${to}.part`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as NodeWebStream<Uint8Array>),
      createWriteStream(partial),
      { signal },
    );
    await rename(partial, to);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path: to, bytes: (await stat(to)).size };
}
