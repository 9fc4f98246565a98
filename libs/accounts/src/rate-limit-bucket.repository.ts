import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A bucket after a take: whether the take got its token, and the tokens left. */
export interface BucketTake {
  allowed: boolean;
  tokens: number;
}

// The tokens of bucket `b` now, refilled at $2 per second up to $3. Time is the database
// server's, so instances with skewed clocks agree.
const REFILLED = 'least($3::float8, b.tokens + extract(epoch FROM now() - b.at) * $2::float8)';

/**
 * The rate_limit_buckets table: token buckets shared by every API instance through PostgreSQL
 * (the sign-in limits when there is no Redis). Raw SQL: a take is one upsert whose new value
 * depends on the row it finds, and a refill is arithmetic on the row's time.
 */
@Injectable()
export class RateLimitBucketRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Takes a token from bucket `key` (a bucket never seen is full) in one statement; the row
   * lock of the upsert makes concurrent takes queue, so a burst is never exceeded.
   */
  async take(key: string, ratePerSecond: number, burst: number): Promise<BucketTake> {
    const [row] = await this.db.query<BucketTake[]>(
      `INSERT INTO rate_limit_buckets AS b (key, tokens, at, allowed)
       VALUES ($1, $3::float8 - 1, now(), true)
       ON CONFLICT (key) DO UPDATE SET
         allowed = ${REFILLED} >= 1,
         tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
         at = now()
       RETURNING allowed, tokens`,
      [key, ratePerSecond, burst],
    );
    return row;
  }

  /** The tokens bucket `key` holds now, taking none. */
  async peek(key: string, ratePerSecond: number, burst: number): Promise<number> {
    const [row] = await this.db.query<{ tokens: number }[]>(
      `SELECT ${REFILLED} AS tokens FROM rate_limit_buckets b WHERE b.key = $1`,
      [key, ratePerSecond, burst],
    );
    return row?.tokens ?? burst;
  }

  /** Forgets buckets under `prefix` untouched for `seconds`: they are full again. */
  async forgetFull(prefix: string, seconds: number): Promise<void> {
    await this.db.query(
      `DELETE FROM rate_limit_buckets
       WHERE starts_with(key, $1) AND at < now() - make_interval(secs => $2)`,
      [prefix, seconds],
    );
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1 FROM rate_limit_buckets LIMIT 1');
  }
}
