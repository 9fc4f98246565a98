/** The caps every process together keeps towards one mail host. */
export interface MailHostPolicy {
  /** Sessions open at once (EMAIL_SMTP_HOST_CONCURRENCY). */
  maxConcurrent: number;
  /** Sessions started in any `windowMs` (EMAIL_SMTP_HOST_SESSIONS_PER_MINUTE per 60 s). */
  maxPerWindow: number;
  windowMs: number;
  /**
   * How long a granted slot is held if it is never released (its process died): longer than
   * any session can last, so a live session never loses its slot.
   */
  leaseMs: number;
  /** How long a cap lowered by a refusal stays lowered. */
  learnedCapMs: number;
}

/** A slot to open one session now, or how long to wait before asking again. */
export type HostPermit =
  | { granted: true; token: string }
  | {
      granted: false;
      retryInMs: number;
      /** What holds it back: the sessions open, the per-minute count, or a refusal's backoff. */
      cause: 'concurrency' | 'rate' | 'backoff';
    };

/**
 * Politeness towards mail hosts, shared by every process that asks them (every scorer, the
 * API): at most `maxConcurrent` sessions open and `maxPerWindow` started per window per host,
 * none while a host's backoff runs, and a lower cap after it refused a session. Adapters: in
 * memory (one process: the embedded default) and Redis (shared by every scorer).
 */
export interface MailHostLimiter {
  /** Takes a session slot for `host` now, or says how long to wait. */
  acquire(host: string): Promise<HostPermit>;
  /** Gives a slot back (the session ended); an unknown or expired token is ignored. */
  release(host: string, token: string): Promise<void>;
  /**
   * The host refused a session (421 or 4xx at connect or greeting): no new session for
   * `backoffMs`, and its cap lowered to one less than the sessions open now (at least 1) for
   * `learnedCapMs`, since the refusal says we found its limit.
   */
  refused(host: string, backoffMs: number): Promise<void>;
  /** Resolves when the store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** How long a waiter sleeps before asking again when every slot is taken. */
export const CONCURRENCY_POLL_MS = 200;
