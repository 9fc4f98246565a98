// The mailbox evidence of `POST /v1/email/validate?explain=true`: what the SMTP probe asked the
// domain's mail server and what it answered, or why no server was asked (docs/models/email.md,
// "SMTP probe").

import type { EmailFields } from './results';

/** Why no mail server was asked about the mailbox. */
export const MAILBOX_UNCHECKED_REASONS = [
  /** EMAIL_SMTP_PROBE is off on this server. */
  'probe_off',
  /** The probe runs only for batch jobs that ask for it (EMAIL_SMTP_PROBE=per_job). */
  'not_requested',
  'invalid_syntax',
  /** Null MX, NXDOMAIN, or no MX and no address record. */
  'no_mail_host',
  /** DNS did not answer, so the mail host is not known. */
  'dns_unknown',
  /** A provider known to accept every recipient at RCPT (a data list with sources). */
  'accept_all_provider',
  /** A test key's call: nothing leaves the process. */
  'test_key',
  /** The domain was found to accept any recipient: its mailboxes are not asked about. */
  'catch_all_domain',
] as const;

/** What a mail server's answer (or its silence) was, when one was asked. */
export const MAILBOX_CHECKED_REASONS = [
  /** 2xx to RCPT TO. */
  'accepted',
  /** 5xx with 5.1.x, or a plain 550/551/553 naming the recipient. */
  'mailbox_missing',
  /** 5xx with 5.2.1. */
  'mailbox_disabled',
  /** 5.2.2 / 4.2.2: the mailbox exists but is full. */
  'mailbox_full',
  /** Any other 5xx: block lists, policy (5.7.x), relay refusals; nothing about the mailbox. */
  'policy_refusal',
  /** 4xx at RCPT TO: greylisting, rate limits. A later ask may settle it. */
  'temporary_failure',
  /** 421 or 4xx at connect or greeting, or the host's session cap kept us waiting too long. */
  'connection_limit',
  'timeout',
  /** Connection refused or reset, no usable address, or the proxy could not connect. */
  'unreachable',
  /** The greeting, EHLO or MAIL FROM was refused or malformed. */
  'protocol_error',
  /** A UTF-8 mailbox and a server without the SMTPUTF8 extension (RFC 6531). */
  'smtputf8_unsupported',
] as const;

export const MAILBOX_REASONS = [...MAILBOX_UNCHECKED_REASONS, ...MAILBOX_CHECKED_REASONS] as const;
export type MailboxReason = (typeof MAILBOX_REASONS)[number];
export type MailboxCheckedReason = (typeof MAILBOX_CHECKED_REASONS)[number];

/** What the mail server's answer says about the mailbox. */
export const MAILBOX_VERDICTS = ['deliverable', 'undeliverable', 'unknown'] as const;
export type MailboxVerdict = (typeof MAILBOX_VERDICTS)[number];

/** The SMTP evidence behind `deliverability` (`?explain=true`). */
export interface MailboxEvidence {
  /** A mail server was asked about this address, now or (`source: cached`) earlier. */
  checked: boolean;
  /** What its answer says; null when none was asked. */
  verdict: MailboxVerdict | null;
  reason: MailboxReason;
  /** One sentence saying the same for a person. */
  detail: string;
  /** The mail host asked. */
  host: string | null;
  /** The SMTP reply code (RFC 5321 §4.2) of the deciding answer. */
  reply_code: number | null;
  /** Its enhanced status code (RFC 3463), e.g. `5.1.1`. */
  enhanced_status: string | null;
  /** The domain accepts any recipient; null when unknown. */
  catch_all: boolean | null;
  /** `live`: asked for this answer; `cached`: an earlier answer still fresh. */
  source: 'live' | 'cached' | null;
  /** Time spent asking, in milliseconds (0 when cached). */
  duration_ms: number | null;
}

/** Email signals plus the mailbox evidence (`POST /v1/email/validate?explain=true`). */
export interface ExplainedEmailFields extends EmailFields {
  mailbox: MailboxEvidence;
}
