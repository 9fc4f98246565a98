import type { MailboxEvidence, MailboxReason } from '@verity/contracts';
import type { MxLookup, SmtpProbeResult } from './email.ports';

/** Whether this engine may ask mail servers, and for what (EMAIL_SMTP_PROBE). */
export type SmtpProbeState = 'off' | 'per_job' | 'on';

const DETAILS: Readonly<Record<MailboxReason, string>> = {
  probe_off:
    'The SMTP probe is off on this server: the mailbox was not checked; deliverability rests on syntax, DNS and lists.',
  not_requested:
    'The SMTP probe runs only for batch jobs that ask for it (smtp=true): the mailbox was not checked.',
  invalid_syntax: 'The address is not valid: no mail server was asked.',
  no_mail_host: 'The domain has no mail host: no mail server was asked.',
  dns_unknown: 'DNS did not answer, so the mail host is unknown: no mail server was asked.',
  accept_all_provider:
    'This provider accepts every recipient when asked, so asking says nothing: the mailbox was not checked and the address is treated as catch-all.',
  test_key: 'A test key: nothing leaves the server, the mailbox was not checked.',
  accepted: 'The mail server accepted the recipient.',
  mailbox_missing: 'The mail server said this mailbox does not exist.',
  mailbox_disabled: 'The mail server said this mailbox is disabled.',
  mailbox_full:
    'The mail server said the mailbox is full: it exists, but whether mail would arrive is unknown.',
  policy_refusal:
    'The mail server refused for a reason that is not about the mailbox (policy, block list): nothing is known about the mailbox.',
  temporary_failure:
    'The mail server answered with a temporary refusal (greylisting or a rate limit). A single call does not wait for it; a later call asks again, and batch jobs retry within their retry window.',
  connection_limit:
    'The mail server refused a session for now (connection limit), or it was at its session cap: asked again later.',
  timeout: 'The mail server did not answer in time.',
  unreachable: 'No mail host of the domain could be reached.',
  protocol_error: 'The mail server refused or garbled the SMTP dialogue before the recipient.',
  smtputf8_unsupported:
    'The address needs the SMTPUTF8 extension, which the mail server does not offer.',
  catch_all_domain:
    'The domain accepts any recipient (found by asking for a random one): the mailbox itself was not asked about.',
};

/** A person's sentence for a reason. */
export function mailboxDetail(reason: MailboxReason): string {
  return DETAILS[reason];
}

function notChecked(reason: MailboxReason, catchAll: boolean | null = null): MailboxEvidence {
  return {
    checked: false,
    verdict: null,
    reason,
    detail: DETAILS[reason],
    host: null,
    reply_code: null,
    enhanced_status: null,
    catch_all: catchAll,
    source: null,
    duration_ms: null,
  };
}

/**
 * The `mailbox` object of `?explain=true`: the probe's evidence, or why no server was asked.
 * `asked` says whether this call or job wanted the probe.
 */
export function mailboxEvidence(
  state: SmtpProbeState,
  asked: boolean,
  validSyntax: boolean,
  mx: MxLookup | null,
  smtp: SmtpProbeResult | null,
): MailboxEvidence {
  if (smtp !== null) {
    const { evidence } = smtp;
    if (evidence.reason === 'catch_all_domain' || evidence.reason === 'accept_all_provider') {
      return notChecked(evidence.reason, true);
    }
    return {
      checked: true,
      verdict: smtp.verdict,
      reason: evidence.reason,
      detail: DETAILS[evidence.reason],
      host: evidence.host,
      reply_code: evidence.code,
      enhanced_status: evidence.enhanced,
      catch_all: smtp.catchAll,
      source: evidence.source,
      duration_ms: Math.round(evidence.durationMs),
    };
  }
  if (state === 'off') return notChecked('probe_off');
  if (!asked) return notChecked('not_requested');
  if (!validSyntax || mx === null) return notChecked('invalid_syntax');
  if (mx.kind === 'unknown') return notChecked('dns_unknown');
  return notChecked('no_mail_host');
}
