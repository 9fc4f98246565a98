import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoginThrottleRepository } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/** How a subject's limit acts once it is reached. */
type LimitAction = 'refuse' | 'delay';

/** Per failure over an email's limit, the next attempt for it waits this much longer… */
const DELAY_STEP_MS = 1_000;
/** …up to this. */
const MAX_DELAY_MS = 10_000;

/**
 * Counts failed sign-ins in fixed windows (CONSOLE_LOGIN_WINDOW_SECONDS), in PostgreSQL so
 * every API instance shares the count, for three subjects:
 * - the email from one client address: past CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL, sign-in from
 *   that address answers 429 until the window ends, whatever the password;
 * - the client address, whatever the email: past CONSOLE_LOGIN_MAX_FAILURES_PER_IP, the same;
 * - the email from anywhere: past CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL, every attempt for it
 *   waits DELAY_STEP_MS more per failure over the limit (at most MAX_DELAY_MS), then proceeds.
 * So whoever guesses is refused only at the addresses they guess from, and someone guessing
 * from many addresses is slowed, not the account locked: nobody else can lock a user out
 * (OWASP Authentication Cheat Sheet, "Account Lockout": lockout as a denial of service). The
 * same answers for known and unknown emails. An attempt is counted when it starts and
 * uncounted if its password was right.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counts: LoginThrottleRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private subjects(email: string, ip: string): [string, number, LimitAction][] {
    const normalised = email.trim().toLowerCase();
    const perEmail = this.config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL;
    return [
      [`email-ip:${ip} ${normalised}`, perEmail, 'refuse'],
      [`ip:${ip}`, this.config.CONSOLE_LOGIN_MAX_FAILURES_PER_IP, 'refuse'],
      [`email:${normalised}`, perEmail, 'delay'],
    ];
  }

  /**
   * Counts this attempt against every subject before the password is checked, in one
   * statement; throws rate_limited (with Retry-After) when a refusing subject is then over its
   * limit, and waits when only the email is.
   * Counting first is what makes the limit hold under concurrency: checking and counting a
   * failure only after the (slow) password check let any number of simultaneous guesses pass
   * the check before the first of them was counted. A new window starts when the old one ended.
   */
  async admit(email: string, ip: string): Promise<void> {
    const subjects = this.subjects(email, ip);
    const rows = await this.counts.count(
      subjects.map(([s]) => s),
      this.config.CONSOLE_LOGIN_WINDOW_SECONDS,
    );
    const limits = new Map(
      subjects.map(([subject, limit, response]) => [subject, { limit, response }]),
    );
    let over = 0;
    const refused: number[] = [];
    for (const row of rows) {
      const subject = limits.get(row.subject);
      if (!subject || row.failures <= subject.limit) continue;
      if (subject.response === 'refuse') refused.push(row.retry);
      else over = row.failures - subject.limit;
    }
    if (refused.length > 0) {
      const retry = Math.max(1, ...refused);
      throw new VerityError(
        'rate_limited',
        `Too many failed sign-ins; try again in ${retry} seconds`,
        { 'Retry-After': String(retry) },
      );
    }
    if (over > 0) await sleep(Math.min(over * DELAY_STEP_MS, MAX_DELAY_MS));
  }

  /** The admitted attempt had the right password: it is not counted as a failure. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.counts.uncount(
      this.subjects(email, ip).map(([s]) => s),
      this.config.CONSOLE_LOGIN_WINDOW_SECONDS,
    );
  }
}
