import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a batch job asks mail servers about its addresses (the `smtp` form field,
 * docs/models/email.md, "SMTP probe"). A constant default: no table rewrite.
 */
export class BatchSmtpProbe1740350000000 implements MigrationInterface {
  name = 'BatchSmtpProbe1740350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs ADD COLUMN smtp_probe boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_jobs DROP COLUMN smtp_probe`);
  }
}
