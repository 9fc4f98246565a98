import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/**
 * Counts failed sign-ins per email and per client IP in fixed windows
 * (CONSOLE_LOGIN_WINDOW_SECONDS), in PostgreSQL so every API instance shares the count. Once
 * a subject reaches its limit, sign-in answers 429 with Retry-After until the window ends,
 * whether or not the password is right; the same answer for known and unknown emails.
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

  /** Throws rate_limited (with Retry-After) while either subject is over its limit. */
  async check(email: string, ip: string): Promise<void> {
    const subjects = this.subjects(email, ip);
    const rows = await this.db.query<{ subject: string; failures: number; retry: number }[]>(
      `SELECT subject, failures,
              ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS retry
       FROM console_login_throttle
       WHERE subject = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
      [subjects.map(([s]) => s), this.config.CONSOLE_LOGIN_WINDOW_SECONDS],
    );
    const limits = new Map(subjects);
    const blocked = rows.filter((r) => r.failures >= (limits.get(r.subject) ?? Infinity));
    if (blocked.length === 0) return;
    const retry = Math.max(1, ...blocked.map((r) => r.retry));
    throw new VerityError(
      'rate_limited',
      `Too many failed sign-ins; try again in ${retry} seconds`,
      { 'Retry-After': String(retry) },
    );
  }

  /** Counts a failure against both subjects (a new window starts when the old one ended). */
  async fail(email: string, ip: string): Promise<void> {
    await this.db.query(
      `INSERT INTO console_login_throttle AS t (subject, window_started_at, failures)
       SELECT s, now(), 1 FROM unnest($1::text[]) AS s
       ON CONFLICT (subject) DO UPDATE SET
         failures = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                         THEN t.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                                  THEN t.window_started_at ELSE now() END`,
      [this.subjects(email, ip).map(([s]) => s), this.config.CONSOLE_LOGIN_WINDOW_SECONDS],
    );
  }
}
