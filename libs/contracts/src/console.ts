// The console's JSON API (/console/api): what apps/api/src/console answers and apps/console
// reads. Plain types, so the console's bundle imports them type-only and carries no server code.

import type { ApiKey } from './account';
import type { BatchStatus, BatchType } from './batch';

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

/** A batch job as the console lists it: the spec's fields plus what went wrong and its refund. */
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
  refunded_credits: number;
  created_at: string;
  finished_at: string | null;
}

/** A console job with its freshly signed download address once done (the Batch page). */
export interface ConsoleBatchJob extends ConsoleJob {
  result_url: string | null;
}

/** GET /batch: the account's latest jobs, newest first. */
export interface ConsoleBatchJobs {
  data: ConsoleBatchJob[];
}

/** GET /overview. */
export interface ConsoleOverview {
  account_id: string;
  credits_balance: number;
  recent_jobs: ConsoleJob[];
}

/** Calls and credits of one operation on one day (UTC). */
export interface UsageDay {
  day: string;
  operation: string;
  calls: number;
  credits: number;
}

/** GET /usage: the last `days` days of every operation, optionally of one key. */
export interface ConsoleUsage {
  days: number;
  operations: string[];
  data: UsageDay[];
}

/** GET /keys. */
export interface ConsoleApiKeys {
  data: ApiKey[];
}

/** One webhook delivery attempt of a job. */
export interface WebhookDelivery {
  job_id: string;
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
