import { DELIVERABILITY } from './results';

export const BATCH_TYPES = ['email', 'phone', 'ip'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

/**
 * The verdicts a job's rows are counted under (`BatchJob.summary`) and a download may keep
 * (`only=`), per type (docs/batch.md, "Summary"): email — the row's `deliverability` (a row that
 * is not an address is `undeliverable`); phone — `valid` or `invalid` (a row that is not a
 * number is `invalid`); ip — each flag the row carries (`vpn`, `proxy`, `tor`, `datacenter`: a
 * row with two flags counts under both), `clean` for an address with none, `invalid` for a row
 * that is not an address.
 */
export const BATCH_VERDICTS = {
  email: DELIVERABILITY,
  phone: ['valid', 'invalid'],
  ip: ['vpn', 'proxy', 'tor', 'datacenter', 'clean', 'invalid'],
} as const satisfies Record<BatchType, readonly string[]>;
export type BatchVerdictOf<T extends BatchType> = (typeof BATCH_VERDICTS)[T][number];
export type BatchVerdict = BatchVerdictOf<BatchType>;

/**
 * Every verdict of every type, once (the summary's keys), ordered so that each type's verdicts
 * keep the order of BATCH_VERDICTS (phone's `invalid` is ip's last).
 */
export const ALL_BATCH_VERDICTS = [
  'deliverable',
  'risky',
  'undeliverable',
  'unknown',
  'valid',
  'vpn',
  'proxy',
  'tor',
  'datacenter',
  'clean',
  'invalid',
] as const satisfies readonly BatchVerdict[];

/**
 * A job's rows counted by verdict (`BatchJob.summary`): every verdict of the job's type is
 * present (0 included), no other. An ip row counts once under each flag it carries.
 */
export type BatchJobSummary = { [V in BatchVerdict]?: number };

/**
 * The column names a batch input file may open with, lowercase, by the type they name
 * (docs/batch.md, "Input file"): a single-column file's first line that is one of them, in any
 * case, is a header whatever the job's type. The console's upload also guesses the column of a
 * multi-column file by them.
 */
export const BATCH_HEADER_NAMES = {
  email: ['email', 'e-mail', 'email_address', 'emailaddress', 'mail'],
  phone: ['phone', 'phone_number', 'phonenumber', 'mobile', 'msisdn', 'tel', 'telephone'],
  ip: ['ip', 'ip_address', 'ipaddress', 'ip_addr'],
} as const satisfies Record<BatchType, readonly string[]>;

export const BATCH_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/**
 * The `status` filter of GET /v1/batch: a status, or `cancelled` — the failed jobs the account
 * cancelled (`error.code` cancelled), which `failed` lists too.
 */
export const BATCH_LIST_STATUSES = [...BATCH_STATUSES, 'cancelled'] as const;
export type BatchListStatus = (typeof BATCH_LIST_STATUSES)[number];

/**
 * Why a job failed (`BatchJob.error`), in the vocabulary of the API's error codes:
 * `unprocessable` — the file cannot be processed as uploaded (retrying the same file fails
 * the same way); `internal_error` — the service could not process it (the upload was lost, a
 * chunk failed on every attempt); `service_unavailable` — a dependency stayed unreachable for
 * longer than the job may wait; `cancelled` — the account cancelled it (DELETE /v1/batch/{jobId}).
 * Unprocessed rows are refunded in every case (the message states how many), and the scored
 * rows are delivered as `partial_result_url`.
 */
export const BATCH_ERROR_CODES = [
  'unprocessable',
  'internal_error',
  'service_unavailable',
  'cancelled',
] as const;
export type BatchErrorCode = (typeof BATCH_ERROR_CODES)[number];

/** The reason of a failed job, shaped like the API's error body. */
export interface BatchJobError {
  code: BatchErrorCode;
  message: string;
}

/**
 * The BatchJob resource; `file_name`, `partial_result_url` and `error` were added within v1
 * (`error` present only when failed).
 */
export interface BatchJob {
  id: string;
  status: BatchStatus;
  type: BatchType;
  total_rows: number;
  processed_rows: number;
  /** Signed download of the result file once done; null before and for a failed job. */
  result_url: string | null;
  /**
   * Added in v1: a failed job's scored rows (in input order, the result file's columns), signed
   * like `result_url`; null unless the job failed after scoring rows.
   */
  partial_result_url: string | null;
  created_at: string;
  /** The uploaded file's name (base name, control characters removed); null when none was sent. */
  file_name: string | null;
  /** Present only when status is failed. */
  error?: BatchJobError;
  /**
   * A phone job's `country_hint` (ISO 3166-1 alpha-2, upper case), the country of every row
   * without one of its own; present only when the job was created with it.
   */
  country_hint?: string;
  /**
   * A phone job's `country_column`, resolved against the file: the 1-based index of the
   * column whose cell is each row's country; present only when the job was created with it.
   */
  country_column?: number;
  /**
   * The scored rows counted by verdict: set once the job is done, or failed with scored rows;
   * null before, and for a job that failed before any row was scored.
   */
  summary: BatchJobSummary | null;
}

/**
 * Which result columns a batch file gets (`fields` form field): `spec` — the standard columns
 * (the default); `all` — also the fields the single-call answers carry that the standard file
 * leaves out (docs/batch.md, "Result columns").
 */
export const BATCH_RESULT_FIELDS = ['spec', 'all'] as const;
export type BatchResultFields = (typeof BATCH_RESULT_FIELDS)[number];

/** GET /v1/batch: a page of the caller's jobs, newest first. */
export interface BatchJobList {
  data: BatchJob[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** Jobs per page of GET /v1/batch: `limit` defaults to this and may be at most BATCH_LIST_MAX. */
export const BATCH_LIST_DEFAULT = 20;
export const BATCH_LIST_MAX = 100;

/**
 * The name a job's result file is saved under, by the console's download
 * (`Content-Disposition`) and the CLI alike: `<stem>-results.csv`, the stem being the uploaded
 * file's name without its extension (`signups.csv` → `signups-results.csv`); `<jobId>-results.csv`
 * for a job uploaded without a file name. A failed job's scored rows: `<stem>-partial.csv`.
 */
export function resultFileName(fileName: string | null, jobId: string, partial = false): string {
  const dot = fileName === null ? -1 : fileName.lastIndexOf('.');
  const stem =
    fileName === null || fileName === '' ? jobId : dot > 0 ? fileName.slice(0, dot) : fileName;
  return `${stem}-${partial ? 'partial' : 'results'}.csv`;
}
