// SMTP adapter of the email engine's probe port (opt-in, EMAIL_SMTP_PROBE): the verifier, the
// mail-host limiter port and its adapters, the outbound check.
export { SmtpVerifier, type SmtpVerifierSettings } from './smtp.verifier';
export { classifyRcpt, enhancedStatus, type RcptAnswer, type SmtpReply } from './smtp.reply';
export { SmtpSession, SmtpSessionError } from './smtp.session';
export {
  directDialer,
  socksDialer,
  parseSocksProxy,
  SmtpConnectError,
  type SmtpDialer,
  type SocksProxySettings,
} from './smtp.dialer';
export type { SmtpEvents, SmtpSessionOutcome } from './smtp.events';
export { OutboundSmtpWatch, type OutboundState, type OutboundStatus } from './smtp.outbound-watch';
export { checkOutboundSmtp, type OutboundCheck } from './smtp.outbound-check';
export {
  ACCEPT_ALL_PROVIDERS,
  isAcceptAllHost,
  type AcceptAllProvider,
} from './accept-all.providers';
export { RESULT_TTL_MS, CATCH_ALL_TTL_MS } from './smtp.result-cache';
export {
  CONCURRENCY_POLL_MS,
  type HostPermit,
  type MailHostLimiter,
  type MailHostPolicy,
} from './limiter/mail-host-limiter.port';
export { MemoryMailHostLimiter } from './limiter/memory.mail-host-limiter';
export { RedisMailHostLimiter } from './limiter/redis.mail-host-limiter';
export { createMailHostLimiter, mailHostPolicy } from './limiter/mail-host-limiter.factory';
export { buildSmtpProbe, smtpProbeOf, type SmtpProbeHandle } from './smtp.factory';
