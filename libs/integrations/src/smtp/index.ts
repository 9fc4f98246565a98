// SMTP adapter of the email engine's SmtpProbe port (opt-in, EMAIL_SMTP_PROBE=true).
export { SmtpMailboxProbe, classifyRcpt, type SmtpProbeOptions } from './smtp.probe';
export { SmtpSession, SmtpSessionError, type SmtpReply } from './smtp.session';
