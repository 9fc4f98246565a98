import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A subject's count after an attempt, and the seconds until its window ends. */
export interface ThrottleCount {
  subject: string;
  failures: number;
  retry: number;
}

/**
 * The console_login_throttle table: failed sign-ins per subject in fixed windows of
 * `windowSeconds`, in raw SQL (an upsert whose update depends on the row's window).
 */
@Injectable()
export class LoginThrottleRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Counts one attempt against every subject in one statement, a new window starting where the
   * old one ended; each subject's count after it.
   */
  count(subjects: string[], windowSeconds: number): Promise<ThrottleCount[]> {
    return this.db.query<ThrottleCount[]>(
      `INSERT INTO console_login_throttle AS t (subject, window_started_at, failures)
       SELECT s, now(), 1 FROM unnest($1::text[]) AS s
       ON CONFLICT (subject) DO UPDATE SET
         failures = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                         THEN t.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN t.window_started_at > now() - make_interval(secs => $2)
                                  THEN t.window_started_at ELSE now() END
       RETURNING subject, failures,
         ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS retry`,
      [subjects, windowSeconds],
    );
  }

  /** Takes back one attempt of each subject counted in its current window. */
  async uncount(subjects: string[], windowSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE console_login_throttle SET failures = greatest(failures - 1, 0)
       WHERE subject = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
      [subjects, windowSeconds],
    );
  }
}
