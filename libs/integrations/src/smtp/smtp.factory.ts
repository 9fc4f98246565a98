import type { AppConfig } from '@verity/config';
import type { EmailEngine } from '@verity/validation';
import type { DnsMxResolver } from '../dns/dns.mx-resolver';
import { createMailHostLimiter } from './limiter/mail-host-limiter.factory';
import { directDialer, socksDialer } from './smtp.dialer';
import { checkOutboundSmtp, type OutboundCheck } from './smtp.outbound-check';
import { SmtpVerifier } from './smtp.verifier';

/** The verifier of each email engine that has one (for metrics and readiness wiring). */
const verifiers = new WeakMap<EmailEngine, SmtpProbeHandle>();

/** The probe's operational side, for the process that hosts it. */
export interface SmtpProbeHandle {
  verifier: SmtpVerifier;
  /** The start-time check (one connection to EMAIL_SMTP_CANARY_DOMAIN's mail host), run once. */
  checkOutbound(): Promise<OutboundCheck>;
}

/** The SMTP verifier when EMAIL_SMTP_PROBE is not off. */
export function buildSmtpProbe(config: AppConfig, mx: DnsMxResolver): SmtpProbeHandle | null {
  if (config.EMAIL_SMTP_PROBE === 'off') return null;
  const dial = config.EMAIL_SMTP_PROXY ? socksDialer(config.EMAIL_SMTP_PROXY) : directDialer;
  const limiter = createMailHostLimiter(config);
  const verifier = new SmtpVerifier(
    mx,
    {
      port: config.EMAIL_SMTP_PORT,
      timeoutMs: config.EMAIL_SMTP_TIMEOUT_MS,
      helo: config.EMAIL_SMTP_HELO,
      mailFrom: config.EMAIL_SMTP_MAIL_FROM,
      allowPrivate: config.EMAIL_SMTP_ALLOW_PRIVATE,
      dial,
      rcptsPerSession: config.EMAIL_SMTP_RCPTS_PER_SESSION,
      maxSessions: config.EMAIL_SMTP_MAX_SESSIONS,
      hostConcurrency: config.EMAIL_SMTP_HOST_CONCURRENCY,
      refusalBackoffMs: config.EMAIL_SMTP_REFUSAL_BACKOFF_MS,
      cache: config.EMAIL_SMTP_CACHE,
      cacheSize: config.EMAIL_SMTP_CACHE_SIZE,
      acceptAllHosts: config.EMAIL_SMTP_ACCEPT_ALL_HOSTS,
    },
    limiter,
  );
  let check: Promise<OutboundCheck> | undefined;
  return {
    verifier,
    checkOutbound: () =>
      (check ??= checkOutboundSmtp(config.EMAIL_SMTP_CANARY_DOMAIN, {
        resolver: mx,
        dial,
        port: config.EMAIL_SMTP_PORT,
        timeoutMs: config.EMAIL_SMTP_TIMEOUT_MS,
        allowPrivate: config.EMAIL_SMTP_ALLOW_PRIVATE,
        watch: verifier.watch,
        limiter,
      })),
  };
}

/** Remembers which engine the probe serves. */
export function attachSmtpProbe(engine: EmailEngine, handle: SmtpProbeHandle): void {
  verifiers.set(engine, handle);
}

/** The SMTP probe of an engine built by buildEmailEngine, or undefined when the probe is off. */
export function smtpProbeOf(engine: object): SmtpProbeHandle | undefined {
  return verifiers.get(engine as EmailEngine);
}
