// Ports of the email engine: the engine does no I/O, adapters live in @verity/integrations.

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
export type SmtpVerdict = 'deliverable' | 'undeliverable' | 'unknown';

/** What an SMTP probe learned; `catchAll` is null when it could not tell. */
export interface SmtpProbeResult {
  verdict: SmtpVerdict;
  catchAll: boolean | null;
}

/** Asks the domain's mail hosts whether they accept a recipient (never sends DATA). */
export interface SmtpProbe {
  probe(address: string, domain: string, hosts: readonly MxHost[]): Promise<SmtpProbeResult>;
}

/** Domain and local-part lists the engine consults; build them with `createEmailLists`. */
export interface EmailLists {
  isDisposable(domain: string): boolean;
  isFreeProvider(domain: string): boolean;
  /** A real mail domain (curated provider or disposable): the typo model never corrects it. */
  isKnownMailDomain(domain: string): boolean;
  isRoleAccount(local: string): boolean;
}
