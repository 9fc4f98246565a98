import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Token buckets shared through PostgreSQL (the console's sign-in limits when REDIS_URL is not
 * set; docs/console.md, "Throttling"): `tokens` at time `at`, and whether the last take got
 * one. They replace console_login_throttle's fixed windows of failure counts.
 */
export class RateLimitBuckets1740355000000 implements MigrationInterface {
  name = 'RateLimitBuckets1740355000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE rate_limit_buckets (
         key text PRIMARY KEY,
         tokens double precision NOT NULL,
         at timestamptz NOT NULL,
         allowed boolean NOT NULL
       )`,
    );
    await q.query('DROP TABLE console_login_throttle');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE console_login_throttle (
         subject text PRIMARY KEY,
         window_started_at timestamptz NOT NULL,
         failures integer NOT NULL
       )`,
    );
    await q.query('DROP TABLE rate_limit_buckets');
  }
}
