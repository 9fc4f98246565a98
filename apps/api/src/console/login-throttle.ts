import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/**
 * Counts failed sign-ins per email and per client IP in fixed windows
 * (CONSOLE_LOGIN_WINDOW_SECONDS), in PostgreSQL so every API instance shares the count. Once
 * a subject reaches its limit, sign-in answers 429 with Retry-After until the window ends,
 * whether or not the password is right; the same answer for known and unknown emails. An
 * attempt is counted when it starts and uncounted if its password was right.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private subjects(email: string, ip: string): [string, number][] {
    return [
      [`email:${email.trim().toLowerCase()}`, this.config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL],
      [`ip:${ip}`, this.config.CONSOLE_LOGIN_MAX_FAILURES_PER_IP],
    ];
  }

  /**
   * Counts this attempt against both subjects before the password is checked, in one
   * statement, and throws rate_limited (with Retry-After) when either is then over its limit.
   * Counting first is what makes the limit hold under concurrency: checking and counting a
   * failure only after the (slow) password check let any number of simultaneous guesses pass
   * the check before the first of them was counted. A new window starts when the old one ended.
   */
  async admit(email: string, ip: string): Promise<void> {
    const subjects = this.subjects(email, ip);
    const rows = await this.db.query<{ subject: string; failures: number; retry: number }[]>(
      `INSERT INTO console_login_throttle AS t (subject, window_started_at, failures)
       SELECT s, now(), 1 FROM unnest($1::text[]) AS s
       ON CONFLICT (subject) DO UPDATE SET
         failures = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                         THEN t.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                                  THEN t.window_started_at ELSE now() END
       RETURNING subject, failures,
         ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS retry`,
      [subjects.map(([s]) => s), this.config.CONSOLE_LOGIN_WINDOW_SECONDS],
    );
    const limits = new Map(subjects);
    const blocked = rows.filter((r) => r.failures > (limits.get(r.subject) ?? Infinity));
    if (blocked.length === 0) return;
    const retry = Math.max(1, ...blocked.map((r) => r.retry));
    throw new VerityError(
      'rate_limited',
      `Too many failed sign-ins; try again in ${retry} seconds`,
      { 'Retry-After': String(retry) },
    );
  }

  /** The admitted attempt had the right password: it is not counted as a failure. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.db.query(
      `UPDATE console_login_throttle SET failures = greatest(failures - 1, 0)
       WHERE subject = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
      [this.subjects(email, ip).map(([s]) => s), this.config.CONSOLE_LOGIN_WINDOW_SECONDS],
    );
  }
}
