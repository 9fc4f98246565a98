import type { AppConfig, SmtpConfig } from '@verity/config';
import type { MailHostLimiter, MailHostPolicy } from './mail-host-limiter.port';
import { MemoryMailHostLimiter } from './memory.mail-host-limiter';
import { RedisMailHostLimiter } from './redis.mail-host-limiter';

/**
 * The minute is counted 65 s long: a slot is taken a moment before the host sees the
 * connection, and a busy host notices connections late (a second of margin was not enough on a
 * loaded machine), so a host counting any 60 s of its own never sees more than the cap.
 */
const WINDOW_MS = 65_000;

/** The caps of EMAIL_SMTP_HOST_*: a slot outlives any session (every step waits ≤ the timeout). */
export function mailHostPolicy(config: SmtpConfig): MailHostPolicy {
  return {
    maxConcurrent: config.EMAIL_SMTP_HOST_CONCURRENCY,
    maxPerWindow: config.EMAIL_SMTP_HOST_SESSIONS_PER_MINUTE,
    windowMs: WINDOW_MS,
    leaseMs: config.EMAIL_SMTP_TIMEOUT_MS * (config.EMAIL_SMTP_RCPTS_PER_SESSION * 2 + 8),
    learnedCapMs: 3_600_000,
  };
}

/** Redis when REDIS_URL is set (one set of caps for every scorer), else this process's memory. */
export function createMailHostLimiter(config: AppConfig): MailHostLimiter {
  const policy = mailHostPolicy(config);
  return config.REDIS_URL
    ? new RedisMailHostLimiter(
        config.REDIS_URL,
        policy,
        `${config.BATCH_NAMESPACE ?? 'verity'}:smtp-host:`,
      )
    : new MemoryMailHostLimiter(policy);
}
