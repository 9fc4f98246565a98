// Every label value the catalogue accepts is listed here, so label cardinality is bounded by
// code, not by traffic: job ids, API keys, emails and IPs never become label values.

/** Billable operations, one per `verity_credits_consumed_total{operation}` series. */
export const CREDIT_OPERATIONS = [
  'email_validate',
  'phone_validate',
  'phone_validate_hlr',
  'ip_intel',
  'verify',
  'batch_row',
] as const;
/** A billable operation. */
export type CreditOperation = (typeof CREDIT_OPERATIONS)[number];

/** Why a request was refused before any work (402 and 429 in the spec). */
export const REJECTION_REASONS = ['insufficient_credits', 'rate_limited'] as const;
/** A rejection reason. */
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Batch job statuses from the spec's job object. */
export const BATCH_JOB_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
/** A batch job status. */
export type BatchJobStatus = (typeof BATCH_JOB_STATUSES)[number];

/** Batch row types (the `type` field of `POST /v1/batch`). */
export const BATCH_ROW_TYPES = ['email', 'phone', 'ip'] as const;
/** A batch row type. */
export type BatchRowType = (typeof BATCH_ROW_TYPES)[number];

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

/** How one HLR request ended; `not_configured` is the embedded default (503, nothing charged). */
export const HLR_OUTCOMES = [
  'active',
  'inactive',
  'unavailable',
  'error',
  'timeout',
  'not_configured',
] as const;
/** An HLR request outcome. */
export type HlrOutcome = (typeof HLR_OUTCOMES)[number];

/** Labels of the HTTP metrics. `route` is the route template, never the raw URL. */
export interface HttpLabels {
  method: string;
  route: string;
  status: string | number;
}
