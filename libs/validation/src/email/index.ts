// Email engine: syntax, lists, typo model and deliverability score; DNS and SMTP are ports.
export type {
  EmailLists,
  MxFailure,
  MxHost,
  MxLookup,
  MxResolver,
  SmtpEvidence,
  SmtpProbe,
  SmtpProbeOptions,
  SmtpProbeResult,
  SmtpReason,
  SmtpTarget,
  SmtpVerdict,
} from './email.ports';
export { mailboxDetail, mailboxEvidence, type SmtpProbeState } from './email.mailbox';
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
  type EmailBatchOptions,
  type EmailCheck,
  type EmailDnsOutcome,
  type EmailEngineDeps,
  type EmailOfflineSignals,
} from './email.engine';
export { specialUseTld, type SpecialUseTld } from './email.special-use';
