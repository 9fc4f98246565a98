// Ports of the email engine: the engine does no I/O, adapters live in @verity/integrations.
import type { MailboxCheckedReason, MailboxVerdict } from '@verity/contracts';

/** One mail exchanger of a domain, lower case, no trailing dot. */
export interface MxHost {
  exchange: string;
  preference: number;
}

/** Why a DNS lookup could not be answered; never a reason to call an address undeliverable. */
export type MxFailure = 'timeout' | 'servfail' | 'error';

/**
 * Outcome of the mail-host lookup of a domain:
 * - `mx`: MX records (sorted by preference);
 * - `implicit`: no MX but A/AAAA records, so the domain itself is the mail host (RFC 5321 §5.1);
 * - `null_mx`: the domain publishes a null MX and accepts no mail (RFC 7505);
 * - `no_mail`: NXDOMAIN, or neither MX nor A/AAAA;
 * - `unknown`: DNS did not answer (timeout, SERVFAIL, transport error).
 */
export type MxLookup =
  | { kind: 'mx'; hosts: readonly MxHost[] }
  | { kind: 'implicit'; hosts: readonly MxHost[] }
  | { kind: 'null_mx' }
  | { kind: 'no_mail' }
  | { kind: 'unknown'; reason: MxFailure };

/** Finds the mail hosts of an ASCII (punycode) domain. */
export interface MxResolver {
  lookupMx(domain: string): Promise<MxLookup>;
  /**
   * The lookup without a promise when the answer is at hand (a cached MX answer), else
   * undefined and the engine asks `lookupMx`. Same answer as `lookupMx` when defined.
   */
  cachedMx?(domain: string): MxLookup | undefined;
}

/** Verdict of an SMTP RCPT probe. */
export type SmtpVerdict = MailboxVerdict;

/**
 * Why the probe answered as it did: a mail server's answer, or one of the two reasons no server
 * needs asking (a provider that accepts every recipient, a domain found to be catch-all).
 */
export type SmtpReason = MailboxCheckedReason | 'accept_all_provider' | 'catch_all_domain';

/** What the mail server said about one address (docs/models/email.md, "SMTP probe"). */
export interface SmtpEvidence {
  reason: SmtpReason;
  /** The mail host asked (its MX name). */
  host: string | null;
  /** Reply code and enhanced status of the deciding answer; null when none came. */
  code: number | null;
  enhanced: string | null;
  source: 'live' | 'cached';
  durationMs: number;
  /** A temporary answer: asking again later may settle it (the batch retry window does). */
  retryable: boolean;
}

/** What an SMTP probe learned; `catchAll` is null when it could not tell. */
export interface SmtpProbeResult {
  verdict: SmtpVerdict;
  catchAll: boolean | null;
  evidence: SmtpEvidence;
}

/** One address to ask about, with its domain's mail hosts (by preference). */
export interface SmtpTarget {
  address: string;
  domain: string;
  hosts: readonly MxHost[];
}

/** How a probe of many addresses may spend time. */
export interface SmtpProbeOptions {
  /**
   * `call`: a single API call, which never waits for a mail host's session cap beyond one
   * SMTP timeout; `batch`: a batch chunk, which waits its turn at every host's cap.
   */
  mode: 'call' | 'batch';
  /** Abandons the probe (the job ended, the process stops): it rejects with the reason. */
  signal?: AbortSignal;
  /** Told once per target answered (progress). */
  onAnswer?: () => void;
}

/** Asks the domains' mail hosts whether they accept recipients (never sends DATA). */
export interface SmtpProbe {
  /** One result per target, in the targets' order. */
  probeMany(targets: readonly SmtpTarget[], options: SmtpProbeOptions): Promise<SmtpProbeResult[]>;
}

/** Domain and local-part lists the engine consults; build them with `createEmailLists`. */
export interface EmailLists {
  isDisposable(domain: string): boolean;
  isFreeProvider(domain: string): boolean;
  /** A real mail domain (curated provider or disposable): the typo model never corrects it. */
  isKnownMailDomain(domain: string): boolean;
  isRoleAccount(local: string): boolean;
}
