import type { SmtpReason, SmtpVerdict } from '@verity/validation';

/** One SMTP reply (RFC 5321 §4.2): the code and the text of all its lines. */
export interface SmtpReply {
  code: number;
  text: string;
}

/** What a reply to RCPT TO says about the mailbox. */
export interface RcptAnswer {
  verdict: SmtpVerdict;
  reason: SmtpReason;
  code: number;
  /** Enhanced status code (RFC 3463) at the start of the text, e.g. `5.1.1`; null if none. */
  enhanced: string | null;
  /** Asking again later may settle it (4xx other than a full mailbox). */
  retryable: boolean;
}

const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/;

/** The enhanced status code at the start of a reply's text (RFC 3463 §2), or null. */
export function enhancedStatus(reply: SmtpReply): string | null {
  const match = ENHANCED.exec(reply.text);
  // RFC 3463 §3: the class digit repeats the reply code's first digit; otherwise it is noise.
  return match !== null && match[1] === String(reply.code).charAt(0) ? match[0] : null;
}

// A plain 550/551/553 counts as "no such mailbox" only when its text is about the recipient
// (RFC 5321 §4.2.3 leaves 550 to mean "mailbox unavailable" *or* a policy refusal), never
// when it names a policy, the sender, the client or a block list.
const ABOUT_RECIPIENT =
  /\b(user|mailbox|recipient|address|account)\b.{0,40}\b(unknown|not found|does ?n[o']t exist|no such|invalid|unavailable|disabled|inactive|not exist)|\b(no such|unknown|invalid|non-?existent)\b.{0,20}\b(user|mailbox|recipient|address|account)\b/i;
const NOT_ABOUT_RECIPIENT =
  /\b(sender|relay|relaying|spam|block(ed|list)?|black ?list|listed|policy|reputation|helo|ehlo|rdns|reverse|client host|dnsbl|rbl)\b/i;

/** Whether a plain (no enhanced status) 5xx text speaks of the recipient itself. */
function namesRecipient(text: string, address: string): boolean {
  if (NOT_ABOUT_RECIPIENT.test(text)) return false;
  return ABOUT_RECIPIENT.test(text) || text.toLowerCase().includes(address.toLowerCase());
}

/**
 * RCPT reply → what it says about the mailbox (docs/models/email.md, "SMTP probe"). Only a
 * mailbox-specific 5xx is undeliverable: enhanced status 5.1.x (bad address) or 5.2.1
 * (disabled), or, without an enhanced code, 550/551/553 whose text names the recipient.
 * Policy refusals (5.7.x, block lists), a full mailbox (5.2.2) and any other 5xx say nothing
 * about existence: unknown. 4xx (greylisting, rate limits) is unknown and retryable, except a
 * full mailbox (4.2.2), which waiting does not settle.
 */
export function classifyRcpt(reply: SmtpReply, address = ''): RcptAnswer {
  const enhanced = enhancedStatus(reply);
  const answer = (verdict: SmtpVerdict, reason: SmtpReason, retryable = false): RcptAnswer => ({
    verdict,
    reason,
    code: reply.code,
    enhanced,
    retryable,
  });
  if (reply.code >= 200 && reply.code < 300) return answer('deliverable', 'accepted');
  const [, subject, detail] = enhanced?.split('.') ?? [];
  if (subject === '2' && detail === '2') return answer('unknown', 'mailbox_full');
  if (reply.code >= 400 && reply.code < 500) {
    return answer('unknown', reply.code === 421 ? 'connection_limit' : 'temporary_failure', true);
  }
  if (reply.code < 500 || reply.code > 599) return answer('unknown', 'protocol_error');
  if (enhanced !== null) {
    if (subject === '1') return answer('undeliverable', 'mailbox_missing');
    if (subject === '2' && detail === '1') return answer('undeliverable', 'mailbox_disabled');
    return answer('unknown', 'policy_refusal');
  }
  const plain = reply.code === 550 || reply.code === 551 || reply.code === 553;
  return plain && namesRecipient(reply.text, address)
    ? answer('undeliverable', 'mailbox_missing')
    : answer('unknown', 'policy_refusal');
}

/** "Too many recipients" (RFC 5321 §4.5.3.1.10: 452, or enhanced 4.5.3): a session or transaction limit. */
export function tooManyRecipients(reply: SmtpReply): boolean {
  const enhanced = enhancedStatus(reply);
  if (enhanced === '4.5.3' || enhanced === '5.5.3') return true;
  return reply.code === 452 && enhanced === null && /too many recipients/i.test(reply.text);
}

/** A 2xx reply. */
export function isOk(reply: SmtpReply): boolean {
  return reply.code >= 200 && reply.code < 300;
}
