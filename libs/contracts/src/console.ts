// The console's JSON API (/console/api): what apps/api/src/console answers and apps/console
// reads. Plain types, so the console's bundle imports them type-only and carries no server code.

import type { ApiKey } from './account';
import type {
  BatchErrorCode,
  BatchJobSummary,
  BatchListStatus,
  BatchStatus,
  BatchType,
} from './batch';

/** POST /auth/login. */
export interface ConsoleLoginRequest {
  email: string;
  password: string;
}

/** POST /auth/link: the token of a one-time sign-in link. */
export interface ConsoleLinkRequest {
  token: string;
}

/** POST /auth/password: the new password, and the current one once a password is set. */
export interface ConsolePasswordRequest {
  password: string;
  current_password?: string;
}

/** Who is signed in: the answer of sign-in, GET /session and a password change. */
export interface ConsoleSessionView {
  email: string;
  account_id: string;
  account_name: string;
  password_set: boolean;
  /** Whether this server has a live HLR provider (HLR_PROVIDER is not `none`). */
  hlr_configured: boolean;
  /** Sent back in `x-csrf-token` on every state-changing request. */
  csrf_token: string;
}

/** A batch job as the console lists it: BatchJob's fields plus what went wrong and its refund. */
export interface ConsoleJob {
  id: string;
  type: BatchType;
  status: BatchStatus;
  /** The uploaded file's name (base name, control characters removed); null when none was sent. */
  file_name: string | null;
  total_rows: number;
  processed_rows: number;
  webhook_url: string | null;
  /** The public reason (BatchJob.error.message); the internal detail stays in the log. */
  failure_reason: string | null;
  /** BatchJob.error.code when failed (`cancelled` for a job the account cancelled), else null. */
  failure_code: BatchErrorCode | null;
  refunded_credits: number;
  created_at: string;
  finished_at: string | null;
  /** BatchJob.summary: the scored rows counted by verdict once the job ended; else null. */
  summary: BatchJobSummary | null;
}

/**
 * A console job with its freshly signed download address once done, or of its scored rows once
 * failed (the Batch page; also the answer of DELETE /batch/{jobId}, which cancels a queued or
 * processing job).
 */
export interface ConsoleBatchJob extends ConsoleJob {
  result_url: string | null;
  /** A failed job's scored rows (BatchJob.partial_result_url). */
  partial_result_url: string | null;
}

/** GET /batch's query: GET /v1/batch's (`cursor` is the previous page's `next_cursor`). */
export interface ConsoleBatchJobsQuery {
  limit?: number;
  cursor?: string;
  status?: BatchListStatus;
}

/** GET /batch?cursor=&status=: a page of the account's jobs, newest first (GET /v1/batch's paging). */
export interface ConsoleBatchJobs {
  data: ConsoleBatchJob[];
  /** The next page's cursor; null on the last page. */
  next_cursor: string | null;
}

/** GET /overview. */
export interface ConsoleOverview {
  account_id: string;
  credits_balance: number;
  recent_jobs: ConsoleJob[];
  /** Whether this deployment serves the operator API (ADMIN_TOKEN set), which can add credits. */
  admin_api: boolean;
}

/** Calls and credits of one operation on one day (UTC). */
export interface UsageDay {
  day: string;
  operation: string;
  calls: number;
  credits: number;
}

/** GET /usage's query: one key's usage, or (absent) every key's. */
export interface ConsoleUsageQuery {
  key_id?: string;
}

/**
 * GET /usage: the last `days` days of every operation, optionally of one key. `data` counts live
 * calls; `test_calls` the calls of test keys, which cost nothing (`credits` 0).
 */
export interface ConsoleUsage {
  days: number;
  operations: string[];
  data: UsageDay[];
  test_calls: UsageDay[];
}

/** GET /keys. */
export interface ConsoleApiKeys {
  data: ApiKey[];
}

/** One webhook delivery attempt: of a job's webhook, or of a test event (`job_id` null). */
export interface WebhookDelivery {
  /** Names the attempt in POST /webhooks/deliveries/{id}/resend. */
  id: string;
  job_id: string | null;
  /** Where it was sent; null for attempts recorded before the URL was kept. */
  url: string | null;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  next_retry_at: string | null;
}

/** GET /webhooks: the attempts, and whether an instance-wide secret signs them instead. */
export interface ConsoleWebhooks {
  instance_secret: boolean;
  data: WebhookDelivery[];
}

/** The account's webhook signing secret (reveal and rotate). */
export interface WebhookSecret {
  secret: string;
}

/** POST /webhooks/test: the address a signed test event is sent to. */
export interface WebhookTestRequest {
  url: string;
}

/** The ledger reasons that add credits to an account (operator top-ups and grants). */
export type CreditsAddedReason = 'grant' | 'top_up';

/** Credits added to the account. */
export interface StatementCredit {
  at: string;
  reason: CreditsAddedReason;
  credits: number;
}

/** The calls of one key and operation in one hour or day (UTC), and the credits they cost. */
export interface StatementCalls {
  /** Start of the hour or day, ISO 8601 UTC. */
  period: string;
  /** null: calls started from the console itself. */
  key_id: string | null;
  /** null when the key no longer exists or for the console's own calls. */
  key_name: string | null;
  operation: string;
  calls: number;
  credits: number;
}

/** A batch job's charge when it was accepted and what its failure gave back. */
export interface StatementBatchJob {
  job_id: string;
  /** The job's uploaded file name; null when none was sent (or the job is gone). */
  file_name: string | null;
  type: string | null;
  charged_at: string;
  charged: number;
  refunded: number;
}

/** How calls are grouped in a statement. */
export type StatementGranularity = 'hour' | 'day';

/** GET /statement's query: `before` (ISO 8601) ends the page; default the current period's end. */
export interface ConsoleStatementQuery {
  granularity?: StatementGranularity;
  before?: string;
}

/** GET /ledger's query: `before` is the previous page's `next_before`; `limit` 1 to 100 (25). */
export interface ConsoleLedgerQuery {
  before?: string;
  limit?: number;
}

/**
 * GET /statement: what the account bought and spent from `from` up to `to` (UTC), newest first:
 * a page is 30 days grouped per day or 24 hours grouped per hour. `next_before` is the `before`
 * of the older page, null when nothing older exists.
 */
export interface ConsoleStatement {
  granularity: StatementGranularity;
  from: string;
  to: string;
  credits_added: StatementCredit[];
  calls: StatementCalls[];
  batch_jobs: StatementBatchJob[];
  next_before: string | null;
}

/** POST /webhooks/deliveries/{id}/resend: the job whose webhook was queued again and the attempt number its next try is listed under. */
export interface WebhookResend {
  job_id: string;
  attempt: number;
}
