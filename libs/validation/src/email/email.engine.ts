import type { EmailFields, ExplainedEmailFields } from '@verity/contracts';
import { mapBounded } from '@verity/common';
import type {
  EmailLists,
  MxLookup,
  MxResolver,
  SmtpProbe,
  SmtpProbeResult,
  SmtpTarget,
} from './email.ports';
import { mailboxEvidence, type SmtpProbeState } from './email.mailbox';
import { parseEmail, type ParsedEmail } from './email.syntax';
import { DomainTypoModel } from './email.typo';
import { scoreEmail } from './email.scorer';
import { specialUseTld } from './email.special-use';

/** What the engine needs; DNS and SMTP come from @verity/integrations. */
export interface EmailEngineDeps {
  mx: MxResolver;
  /** Optional RCPT probe; when absent no SMTP connection is ever made. */
  smtp?: SmtpProbe;
  /**
   * When the probe runs (EMAIL_SMTP_PROBE): `on` for single calls and every batch job,
   * `per_job` only for batch jobs that ask. Default `on` with a probe, else `off`.
   */
  smtpState?: SmtpProbeState;
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

/** The public result and how its DNS and SMTP evidence was obtained. */
export interface EmailCheck {
  fields: EmailFields;
  dns: EmailDnsOutcome;
  /** What the mail server said; null when no probe ran for the address. */
  smtp: SmtpProbeResult | null;
}

/** How a batch chunk's addresses are checked (`checkMany`). */
export interface EmailBatchOptions {
  /** Ask the mail servers (the job's `smtp`); ignored when this engine has no probe. */
  smtp: boolean;
  /** DNS lookups in flight at once. */
  concurrency: number;
  /** Abandons the work (job ended, process stopping): rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told once per address answered (progress). */
  onRow?: () => void;
}

/** The email engine: safe to share across requests. */
export interface EmailEngine {
  validate(input: string): Promise<EmailFields>;
  /** `validate` plus the DNS and SMTP evidence behind it. */
  check(input: string): Promise<EmailCheck>;
  /** `validate` plus the mailbox evidence (`?explain=true`). */
  explain(input: string): Promise<ExplainedEmailFields>;
  /**
   * A batch chunk's addresses, in order: DNS first, then the SMTP probe (when asked) for all
   * of them at once, so one session per mail host serves many recipients.
   */
  checkMany(inputs: readonly string[], options: EmailBatchOptions): Promise<EmailCheck[]>;
  /** Syntax, lists and typo only (no DNS): the fast path, also used by the benchmark. */
  analyzeOffline(input: string): EmailOfflineSignals;
}

const NO_MAIL: MxLookup = { kind: 'no_mail' };

/** One address's evidence before it is scored. */
interface Inspected {
  offline: EmailOfflineSignals;
  lookup: MxLookup | null;
  smtp: SmtpProbeResult | null;
}

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

  const state: SmtpProbeState = smtp === undefined ? 'off' : (deps.smtpState ?? 'on');

  // Special-use names (email.special-use.ts) never reach the resolver: no mail host. A cached
  // answer is used without awaiting a promise.
  const answerAtHand = (domain: string): MxLookup | undefined =>
    specialUseTld(domain) !== null ? NO_MAIL : mx.cachedMx?.(domain);

  const lookupOf = async (parsed: ParsedEmail | null): Promise<MxLookup | null> =>
    parsed === null ? null : (answerAtHand(parsed.domain) ?? (await mx.lookupMx(parsed.domain)));

  const targetOf = (parsed: ParsedEmail | null, lookup: MxLookup | null): SmtpTarget | null =>
    parsed !== null && lookup !== null && (lookup.kind === 'mx' || lookup.kind === 'implicit')
      ? { address: `${parsed.local}@${parsed.domain}`, domain: parsed.domain, hosts: lookup.hosts }
      : null;

  const checkOf = (
    offline: EmailOfflineSignals,
    lookup: MxLookup | null,
    smtpResult: SmtpProbeResult | null,
  ): EmailCheck => ({
    fields: emailFields(offline, lookup, smtpResult),
    dns: dnsOutcome(offline.parsed, lookup),
    smtp: smtpResult,
  });

  /** One address; the probe asked as a single call when `probe` (never waits minutes). */
  const inspect = async (input: string, probe: boolean): Promise<Inspected> => {
    const offline = analyzeOffline(input);
    const lookup = await lookupOf(offline.parsed);
    const target = probe ? targetOf(offline.parsed, lookup) : null;
    // Without a probe (the default) no promise is awaited for it.
    const smtpResult =
      target === null ? null : (await smtp!.probeMany([target], { mode: 'call' }))[0];
    return { offline, lookup, smtp: smtpResult };
  };

  const check = async (input: string): Promise<EmailCheck> => {
    const found = await inspect(input, state === 'on');
    return checkOf(found.offline, found.lookup, found.smtp);
  };

  const explain = async (input: string): Promise<ExplainedEmailFields> => {
    const { offline, lookup, smtp: smtpResult } = await inspect(input, state === 'on');
    const fields = emailFields(offline, lookup, smtpResult);
    const mailbox = mailboxEvidence(
      state,
      state === 'on',
      offline.parsed !== null,
      lookup,
      smtpResult,
    );
    return { ...fields, mailbox };
  };

  const checkMany = async (
    inputs: readonly string[],
    options: EmailBatchOptions,
  ): Promise<EmailCheck[]> => {
    const { signal, onRow } = options;
    if (smtp === undefined || state === 'off' || !options.smtp) {
      return mapBounded(
        inputs,
        options.concurrency,
        async (input) => {
          const found = await inspect(input, false);
          return checkOf(found.offline, found.lookup, null);
        },
        { signal, onDone: onRow },
      );
    }
    const found = await mapBounded(inputs, options.concurrency, (input) => inspect(input, false), {
      signal,
    });
    const targets: SmtpTarget[] = [];
    const rowOf: number[] = [];
    for (let i = 0; i < found.length; i++) {
      const target = targetOf(found[i].offline.parsed, found[i].lookup);
      if (target === null) onRow?.();
      else {
        targets.push(target);
        rowOf.push(i);
      }
    }
    const answers = await smtp.probeMany(targets, { mode: 'batch', signal, onAnswer: onRow });
    for (let t = 0; t < answers.length; t++) found[rowOf[t]].smtp = answers[t];
    return found.map((f) => checkOf(f.offline, f.lookup, f.smtp));
  };

  const validate = async (input: string): Promise<EmailFields> => (await check(input)).fields;

  return { validate, check, explain, checkMany, analyzeOffline };
}
