// Mail providers whose servers accept every recipient at RCPT TO and bounce later, so asking
// them says nothing about a mailbox and only spends a session (docs/models/email.md, "Accept-all
// providers"). Matched on the mail host's name, since one provider serves many domains. An
// address there is answered as catch-all (risky) without a connection. Operators add their own
// with EMAIL_SMTP_ACCEPT_ALL_HOSTS.

/** One accept-all provider: the MX host suffix that identifies it, and the evidence. */
export interface AcceptAllProvider {
  /** MX host names ending with this (lower case, leading dot) belong to the provider. */
  readonly mxSuffix: string;
  readonly provider: string;
  readonly source: string;
}

export const ACCEPT_ALL_PROVIDERS: readonly AcceptAllProvider[] = [
  {
    mxSuffix: '.yahoodns.net',
    provider:
      'Yahoo Mail and AOL Mail (one MX fleet: mta*.am0.yahoodns.net, mx-aol.mail.gm0.yahoodns.net)',
    source:
      'Reacher check-if-email-exists (AGPL-3.0): core/src/mx.rs `is_yahoo` names these hosts, and core/src/smtp/verif_method.rs does not use SMTP for them by default (YahooVerifMethod defaults to the account-recovery check), because their RCPT answer does not tell mailboxes apart',
  },
];

/** Whether `mxHost` (an MX name) belongs to an accept-all provider or an operator's suffix. */
export function isAcceptAllHost(mxHost: string, extraSuffixes: readonly string[] = []): boolean {
  const host = `.${mxHost.toLowerCase().replace(/\.$/, '')}`;
  return (
    ACCEPT_ALL_PROVIDERS.some((p) => host.endsWith(p.mxSuffix)) ||
    extraSuffixes.some((suffix) => host.endsWith(suffix.startsWith('.') ? suffix : `.${suffix}`))
  );
}
