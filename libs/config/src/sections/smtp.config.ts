import { z } from 'zod';
import { envBool, envInt, envList } from '../env-types';

/** A SOCKS5 proxy for the probe's connections. */
export interface SmtpProxy {
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** `socks5://[user:password@]host:port`, or '' for direct connections. */
const proxyUrl = z
  .string()
  .default('')
  .transform((value, ctx): SmtpProxy | null => {
    if (value.trim() === '') return null;
    let url: URL | null;
    try {
      url = new URL(value.trim());
    } catch {
      url = null;
    }
    if (url === null || url.protocol !== 'socks5:' || url.hostname === '' || url.port === '') {
      ctx.addIssue({ code: 'custom', message: 'expected socks5://[user:password@]host:port' });
      return z.NEVER;
    }
    return {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(url.port),
      ...(url.username !== '' && { username: decodeURIComponent(url.username) }),
      ...(url.password !== '' && { password: decodeURIComponent(url.password) }),
    };
  });

/** When the probe runs: never, for every call and job, or only for batch jobs that ask. */
const probeMode = z
  .enum(['false', 'true', '0', '1', 'off', 'on', 'per_job'])
  .default('false')
  .transform((v): 'off' | 'on' | 'per_job' =>
    v === 'per_job' ? 'per_job' : v === 'true' || v === '1' || v === 'on' ? 'on' : 'off',
  );

/** The SMTP mailbox probe (docs/models/email.md, "SMTP probe"; every default justified there). */
export const smtpSchema = z.object({
  /**
   * `off` (also false): no mail server is ever asked. `on` (also true): single calls and every
   * email batch job (a job may still send smtp=false). `per_job`: only batch jobs created with
   * smtp=true.
   */
  EMAIL_SMTP_PROBE: probeMode,
  /** Port of the mail hosts: 25 for real ones; another only for the loopback test world. */
  EMAIL_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  /** Wait for each SMTP step (connect, each reply). */
  EMAIL_SMTP_TIMEOUT_MS: envInt(5_000),
  /** Name sent in EHLO: this host's public FQDN, matching the sending IP's reverse DNS. */
  EMAIL_SMTP_HELO: z.string().min(1).default('localhost'),
  /** Reverse-path for MAIL FROM (an address at the HELO domain); empty sends "<>". */
  EMAIL_SMTP_MAIL_FROM: z.string().default(''),
  /** Allow probing mail hosts on loopback/private addresses (tests only; SSRF guard otherwise). */
  EMAIL_SMTP_ALLOW_PRIVATE: envBool(false),
  /** Dial mail hosts through this SOCKS5 proxy (most clouds block outbound port 25). */
  EMAIL_SMTP_PROXY: proxyUrl,
  /** Recipients one session carries at most (Postfix's default_destination_recipient_limit). */
  EMAIL_SMTP_RCPTS_PER_SESSION: envInt(50),
  /** Sessions open at once per mail host, all processes together (Postfix starts at 5). */
  EMAIL_SMTP_HOST_CONCURRENCY: envInt(5),
  /** Sessions started per minute per mail host, all processes together. */
  EMAIL_SMTP_HOST_SESSIONS_PER_MINUTE: envInt(30),
  /** Sessions one process has open at once, all hosts together. */
  EMAIL_SMTP_MAX_SESSIONS: envInt(64),
  /** Backoff after a host refuses a session (421); doubles per refusal in a row, up to 5 min. */
  EMAIL_SMTP_REFUSAL_BACKOFF_MS: envInt(10_000),
  /**
   * How long a batch job keeps asking again about addresses that got a temporary answer
   * (greylisting, rate limits) before they are `unknown`: 6 minutes covers a 5-minute
   * greylisting delay (Postgrey's default). 0: never asked again.
   */
  EMAIL_SMTP_RETRY_WINDOW_MS: envInt(360_000, 0),
  /** First wait before asking again; doubles per round (30 s, 60 s, 120 s, ...). */
  EMAIL_SMTP_RETRY_DELAY_MS: envInt(30_000),
  /** Reuse answers per address and catch-all per domain (TTL by verdict). */
  EMAIL_SMTP_CACHE: envBool(true),
  /** Addresses whose answers the cache keeps (per process). */
  EMAIL_SMTP_CACHE_SIZE: envInt(50_000),
  /** MX host suffixes of accept-all providers, beside the bundled list (comma list). */
  EMAIL_SMTP_ACCEPT_ALL_HOSTS: envList(),
  /**
   * At start, one connection to this domain's mail host tells whether port 25 is open
   * (a warning in the log and /readyz when it times out); empty: no check.
   */
  EMAIL_SMTP_CANARY_DOMAIN: z.string().default('gmail.com'),
});

/** The smtp section of the validated config (inject it with SMTP_CONFIG). */
export type SmtpConfig = z.infer<typeof smtpSchema>;
