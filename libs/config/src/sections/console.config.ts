import { z } from 'zod';
import { envInt } from '../env-types';

/** The web console: sessions, sign-in links, login throttling, key activity. */
export const consoleSchema = z.object({
  /** A session ends after this long without a request… */
  CONSOLE_SESSION_IDLE_MINUTES: envInt(60),
  /** …and in any case this long after sign-in. */
  CONSOLE_SESSION_MAX_HOURS: envInt(12),
  /** One-time sign-in links (printed by `npm start`, the admin API and the CLI) expire after this. */
  CONSOLE_LINK_TTL_MINUTES: envInt(30),
  /**
   * Wrong passwords per email from browsers that never signed in to it, all addresses together,
   * and per trusted browser; then 429 (docs/console.md, "Throttling")…
   */
  CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL: envInt(5),
  /** …and per client address (IPv6: its /64), over any emails… */
  CONSOLE_LOGIN_MAX_FAILURES_PER_IP: envInt(20),
  /** …each refilled over this many seconds. */
  CONSOLE_LOGIN_WINDOW_SECONDS: envInt(900),
  /** A browser that signed in stays trusted for its own sign-ins this long (device cookie). */
  CONSOLE_DEVICE_TRUST_DAYS: envInt(30),
  /** Worker threads that check passwords (scrypt, ~128 MiB and a core each while busy)… */
  CONSOLE_PASSWORD_HASH_THREADS: envInt(1),
  /** …and checks that may wait for one, per lane (trusted, untrusted); more are 429 at once. */
  CONSOLE_PASSWORD_HASH_QUEUE: envInt(8),
  /** Test webhook events an account may send from the console per minute. */
  CONSOLE_TEST_EVENTS_PER_MINUTE: envInt(10),
  /**
   * `last_used_at` of API keys is kept in memory and flushed this often (not one write per
   * call), so it may lag by this much.
   */
  KEY_LAST_USED_FLUSH_MS: envInt(60_000),
});

/** The console section of the validated config (inject it with CONSOLE_CONFIG). */
export type ConsoleConfig = z.infer<typeof consoleSchema>;
