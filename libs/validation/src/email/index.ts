// Email engine: syntax, lists, typo model and deliverability score; DNS and SMTP are ports.
export type {
  EmailLists,
  MxFailure,
  MxHost,
  MxLookup,
  MxResolver,
  SmtpProbe,
  SmtpProbeResult,
  SmtpVerdict,
} from './email.ports';
export { parseEmail, type ParsedEmail } from './email.syntax';
export { createEmailLists, loadBundledEmailLists, type EmailListSources } from './email.lists';
export {
  DomainTypoModel,
  POPULAR_EMAIL_DOMAINS,
  boundedDamerauLevenshtein,
  type DomainTypoModelOptions,
} from './email.typo';
export { scoreEmail, SCORE_WEIGHTS, SCORE_BANDS, type EmailSignals } from './email.scorer';
export {
  createEmailEngine,
  type EmailEngine,
  type EmailCheck,
  type EmailDnsOutcome,
  type EmailEngineDeps,
  type EmailOfflineSignals,
} from './email.engine';
export { specialUseTld, type SpecialUseTld } from './email.special-use';
