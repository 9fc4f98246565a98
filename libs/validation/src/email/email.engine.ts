import type { EmailFields } from '@verity/contracts';
import type { EmailLists, MxLookup, MxResolver, SmtpProbe, SmtpProbeResult } from './email.ports';
import { parseEmail, type ParsedEmail } from './email.syntax';
import { DomainTypoModel } from './email.typo';
import { scoreEmail } from './email.scorer';

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

/** The email engine: one call per address, safe to share across requests. */
export interface EmailEngine {
  validate(input: string): Promise<EmailFields>;
  /** Syntax, lists and typo only (no DNS): the fast path, also used by the benchmark. */
  analyzeOffline(input: string): EmailOfflineSignals;
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
    const suggestion = typos.suggest(parsed.domain);
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

  const validate = async (input: string): Promise<EmailFields> => {
    const offline = analyzeOffline(input);
    const { parsed } = offline;
    const lookup =
      parsed === null ? null : (mx.cachedMx?.(parsed.domain) ?? (await mx.lookupMx(parsed.domain)));
    // Without a prober (the default) no promise is awaited for it.
    const smtpResult =
      parsed === null || lookup === null || smtp === undefined
        ? null
        : await probe(smtp, parsed, lookup);
    const { deliverability, score } = scoreEmail({
      validSyntax: parsed !== null,
      mx: lookup,
      smtp: smtpResult,
      disposable: offline.disposable,
      roleBased: offline.role_based,
      freeProvider: offline.free_provider,
      typoSuggested: offline.did_you_mean !== null,
    });
    return {
      input,
      valid_syntax: parsed !== null,
      mx_found: lookup?.kind === 'mx',
      disposable: offline.disposable,
      role_based: offline.role_based,
      free_provider: offline.free_provider,
      did_you_mean: offline.did_you_mean,
      deliverability,
      score,
    };
  };

  return { validate, analyzeOffline };
}
