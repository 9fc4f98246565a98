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
  /** Wrong passwords allowed per email within a window before 429… */
  CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL: envInt(5),
  /** …and per client IP (many emails from one address). */
  CONSOLE_LOGIN_MAX_FAILURES_PER_IP: envInt(20),
  CONSOLE_LOGIN_WINDOW_SECONDS: envInt(900),
  /**
   * `last_used_at` of API keys is kept in memory and flushed this often (not one write per
   * call), so it may lag by this much.
   */
  KEY_LAST_USED_FLUSH_MS: envInt(60_000),
});
