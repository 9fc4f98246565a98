// Every label value the catalogue accepts is listed here, so label cardinality is bounded by
// code, not by traffic: job ids, API keys, emails and IPs never become label values. Values
// that name a shape of the API (operations, job statuses, row types, list kinds, HLR statuses)
// come from @verity/contracts, so a label set changes with the API, never apart from it.
import {
  BATCH_STATUSES,
  BATCH_TYPES,
  CREDIT_OPERATIONS,
  HLR_STATUSES,
  IP_LIST_KINDS,
  MAILBOX_CHECKED_REASONS,
  type MailboxVerdict,
  type BatchStatus,
  type BatchType,
  type CreditOperation,
  type IpListKind,
} from '@verity/contracts/wire';

/** Billable operations, one per `verity_credits_consumed_total{operation}` series. */
export { CREDIT_OPERATIONS, type CreditOperation };

/** Why a request was refused before any work (402 and 429). */
export const REJECTION_REASONS = ['insufficient_credits', 'rate_limited'] as const;
/** A rejection reason. */
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Batch job statuses of the BatchJob resource. */
export const BATCH_JOB_STATUSES = BATCH_STATUSES;
/** A batch job status. */
export type BatchJobStatus = BatchStatus;

/** Batch row types (the `type` field of `POST /v1/batch`). */
export const BATCH_ROW_TYPES = BATCH_TYPES;
/** A batch row type. */
export type BatchRowType = BatchType;

/** How one DNS query ended (RFC 1035 rcodes folded to what the email engine acts on). */
export const DNS_OUTCOMES = [
  'answer',
  'nxdomain',
  'nodata',
  'servfail',
  'timeout',
  'error',
] as const;
/** A DNS query outcome. */
export type DnsOutcome = (typeof DNS_OUTCOMES)[number];

/** DNS cache lookup result. */
export const DNS_CACHE_RESULTS = ['hit', 'miss'] as const;
/** A DNS cache lookup result. */
export type DnsCacheResult = (typeof DNS_CACHE_RESULTS)[number];

/** The kinds of open-data list the in-service refresh downloads. */
export const DATA_LIST_KINDS = IP_LIST_KINDS;
/** One kind of open-data list. */
export type DataListKind = IpListKind;
/** How one list download of the in-service refresh ended. */
export const DATA_REFRESH_OUTCOMES = ['updated', 'failed'] as const;
/** A list download outcome. */
export type DataRefreshOutcome = (typeof DATA_REFRESH_OUTCOMES)[number];

/** How one HLR request ended; `not_configured` is the embedded default (503, nothing charged). */
export const HLR_OUTCOMES = [...HLR_STATUSES, 'error', 'timeout', 'not_configured'] as const;
/** An HLR request outcome. */
export type HlrOutcome = (typeof HLR_OUTCOMES)[number];

/**
 * Dependencies a 503 is counted against: the HLR provider, the IP databases, the
 * infrastructure (PostgreSQL, S3, Redis, Kafka), or `other` for a 503 whose error names none.
 */
export const UNAVAILABLE_DEPENDENCIES = [
  'hlr',
  'ip_data',
  'postgres',
  's3',
  'redis',
  'kafka',
  'other',
] as const;
/** A dependency behind a 503. */
export type UnavailableDependency = (typeof UNAVAILABLE_DEPENDENCIES)[number];

/**
 * How webhook delivery went: per attempt `delivered`, `failed` (retried with backoff unless it
 * was the last) or `refused` (a URL the address policy rejects, never retried); and once per
 * webhook given up after its last failed attempt, `abandoned`.
 */
export const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'abandoned', 'refused'] as const;
/** A webhook delivery outcome. */
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Credit ledger movements whose transaction can fail: a debit before work, a refund after failed work. */
export const CREDIT_LEDGER_MOVEMENTS = ['debit', 'refund'] as const;
/** A credit ledger movement. */
export type CreditLedgerMovement = (typeof CREDIT_LEDGER_MOVEMENTS)[number];

/** Unfinished batch job statuses (`verity_batch_job_idle_seconds`). */
export const UNFINISHED_JOB_STATUSES = [
  'queued',
  'processing',
] as const satisfies readonly BatchStatus[];
/** An unfinished batch job status. */
export type UnfinishedJobStatus = (typeof UNFINISHED_JOB_STATUSES)[number];

/** Outcomes of `verity_batch_recoveries_total`. */
export const RECOVERY_OUTCOMES = ['republished', 'failed'] as const;
/** One outcome of a batch job recovery. */
export type RecoveryOutcome = (typeof RECOVERY_OUTCOMES)[number];

/** Batch workers that wait out a dependency outage (`verity_batch_dependency_outage`). */
export const BATCH_WORKERS = ['scorer', 'assembler', 'splitter'] as const;
/** A batch worker. */
export type BatchWorker = (typeof BATCH_WORKERS)[number];

/** Dependencies an outage is counted against (`verity_batch_dependency_outages_total`). */
export const OUTAGE_DEPENDENCIES = ['postgres', 's3', 'redis', 'kafka', 'network'] as const;
/** A dependency whose outage a batch worker waits out. */
export type OutageDependency = (typeof OUTAGE_DEPENDENCIES)[number];

/** How an SMTP session ended (`verity_smtp_sessions_total`). */
export const SMTP_SESSION_OUTCOMES = ['served', 'refused', 'unreachable', 'failed'] as const;
/** An SMTP session outcome. */
export type SmtpSessionOutcomeLabel = (typeof SMTP_SESSION_OUTCOMES)[number];

/** What a RCPT TO asked about (`verity_smtp_rcpts_total`). */
export const SMTP_RCPT_KINDS = ['address', 'catch_all'] as const;
/** A RCPT kind. */
export type SmtpRcptKind = (typeof SMTP_RCPT_KINDS)[number];

/** A probe verdict (the contract's mailbox verdicts). */
export type SmtpVerdictLabel = MailboxVerdict;
/** Every reason the probe answers with (a server's answer, or a list or catch-all cache). */
export const SMTP_REASONS = [
  ...MAILBOX_CHECKED_REASONS,
  'accept_all_provider',
  'catch_all_domain',
] as const;
/** A probe reason. */
export type SmtpReasonLabel = (typeof SMTP_REASONS)[number];
/** Whether an answer was asked for now or reused. */
export const SMTP_SOURCES = ['live', 'cached'] as const;
/** An answer's source. */
export type SmtpSource = (typeof SMTP_SOURCES)[number];

/** Where a mail host refused a session (`verity_smtp_refusals_total`). */
export const SMTP_REFUSAL_STAGES = ['session', 'rcpt'] as const;
/** A refusal stage. */
export type SmtpRefusalStage = (typeof SMTP_REFUSAL_STAGES)[number];

/** Why addresses go to another retry round (`verity_smtp_retries_total`). */
export const SMTP_RETRY_CAUSES = ['temporary_failure'] as const;
/** A retry cause. */
export type SmtpRetryCause = (typeof SMTP_RETRY_CAUSES)[number];
