import type { EmailFields } from '@verity/contracts';
import type { EmailLists, MxLookup, MxResolver, SmtpProbe, SmtpProbeResult } from './email.ports';
import { parseEmail, type ParsedEmail } from './email.syntax';
import { DomainTypoModel } from './email.typo';
import { scoreEmail } from './email.scorer';
import { specialUseTld } from './email.special-use';

/** What the engine needs; DNS and SMTP come from @verity/integrations. */
export interface EmailEngineDeps {
  mx: MxResolver;
  /** Optional RCPT probe; when absent no SMTP connection is ever made. */
  smtp?: SmtpProbe;
  lists: EmailLists;
  /** Shared typo model (its memo table is per instance). */
  typos?: DomainTypoModel;
}

/** Result of the checks that need no network. */
export interface EmailOfflineSignals {
  input: string;
  parsed: ParsedEmail | null;
  disposable: boolean;
  role_based: boolean;
  free_provider: boolean;
  did_you_mean: string | null;
}

/**
 * What DNS said about the domain, for the fraud model (docs/models/verify.md): `answered`
 * (any answer, NXDOMAIN included), `failed` (timeout, SERVFAIL, transport error: no evidence
 * either way), `special_use` (a special-use name, never asked), `not_asked` (invalid syntax),
 * `test_key` (a test key's call, which asks no DNS: no evidence either way).
 */
export type EmailDnsOutcome = 'answered' | 'failed' | 'special_use' | 'not_asked' | 'test_key';

/** The public result and how its DNS evidence was obtained. */
export interface EmailCheck {
  fields: EmailFields;
  dns: EmailDnsOutcome;
}

/** The email engine: one call per address, safe to share across requests. */
export interface EmailEngine {
  validate(input: string): Promise<EmailFields>;
  /** `validate` plus the DNS outcome behind `mx_found`. */
  check(input: string): Promise<EmailCheck>;
  /** Syntax, lists and typo only (no DNS): the fast path, also used by the benchmark. */
  analyzeOffline(input: string): EmailOfflineSignals;
}

const NO_MAIL: MxLookup = { kind: 'no_mail' };

function dnsOutcome(parsed: ParsedEmail | null, lookup: MxLookup | null): EmailDnsOutcome {
  if (parsed === null || lookup === null) return 'not_asked';
  if (specialUseTld(parsed.domain) !== null) return 'special_use';
  return lookup.kind === 'unknown' ? 'failed' : 'answered';
}

/**
 * The result of one address from its offline signals and its DNS and SMTP evidence (null when
 * there is none): the deliverability model of email.scorer.ts.
 */
export function emailFields(
  offline: EmailOfflineSignals,
  mx: MxLookup | null,
  smtp: SmtpProbeResult | null,
): EmailFields {
  const { deliverability, score } = scoreEmail({
    validSyntax: offline.parsed !== null,
    mx,
    smtp,
    disposable: offline.disposable,
    roleBased: offline.role_based,
    freeProvider: offline.free_provider,
    typoSuggested: offline.did_you_mean !== null,
  });
  return {
    input: offline.input,
    valid_syntax: offline.parsed !== null,
    mx_found: mx?.kind === 'mx',
    disposable: offline.disposable,
    role_based: offline.role_based,
    free_provider: offline.free_provider,
    did_you_mean: offline.did_you_mean,
    deliverability,
    score,
  };
}

/** Builds the email engine from its ports. */
export function createEmailEngine(deps: EmailEngineDeps): EmailEngine {
  const { lists, mx, smtp } = deps;
  const typos = deps.typos ?? new DomainTypoModel({ isKnown: (d) => lists.isKnownMailDomain(d) });

  const analyzeOffline = (input: string): EmailOfflineSignals => {
    const parsed = parseEmail(input);
    if (parsed === null) {
      return {
        input,
        parsed,
        disposable: false,
        role_based: false,
        free_provider: false,
        did_you_mean: null,
      };
    }
    const suggestion = specialUseTld(parsed.domain) === null ? typos.suggest(parsed.domain) : null;
    return {
      input,
      parsed,
      disposable: lists.isDisposable(parsed.domain),
      role_based: lists.isRoleAccount(parsed.local),
      free_provider: lists.isFreeProvider(parsed.domain),
      did_you_mean: suggestion === null ? null : `${parsed.local}@${suggestion}`,
    };
  };

  const probe = async (
    prober: SmtpProbe,
    parsed: ParsedEmail,
    lookup: MxLookup,
  ): Promise<SmtpProbeResult | null> => {
    if (lookup.kind !== 'mx' && lookup.kind !== 'implicit') return null;
    return prober.probe(`${parsed.local}@${parsed.domain}`, parsed.domain, lookup.hosts);
  };

  // Special-use names (email.special-use.ts) never reach the resolver: no mail host. A cached
  // answer is used without awaiting a promise.
  const answerAtHand = (domain: string): MxLookup | undefined =>
    specialUseTld(domain) !== null ? NO_MAIL : mx.cachedMx?.(domain);

  const check = async (input: string): Promise<EmailCheck> => {
    const offline = analyzeOffline(input);
    const { parsed } = offline;
    const lookup =
      parsed === null ? null : (answerAtHand(parsed.domain) ?? (await mx.lookupMx(parsed.domain)));
    // Without a prober (the default) no promise is awaited for it.
    const smtpResult =
      parsed === null || lookup === null || smtp === undefined
        ? null
        : await probe(smtp, parsed, lookup);
    const fields = emailFields(offline, lookup, smtpResult);
    return { fields, dns: dnsOutcome(parsed, lookup) };
  };

  const validate = async (input: string): Promise<EmailFields> => (await check(input)).fields;

  return { validate, check, analyzeOffline };
}
