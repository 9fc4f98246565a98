import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The URL each webhook attempt was sent to (attempts recorded earlier have none), and test
 * events sent from the console: attempts of no job.
 */
export class WebhookDeliveryTarget1739200000000 implements MigrationInterface {
  name = 'WebhookDeliveryTarget1739200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN url text`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN job_id DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_deliveries WHERE job_id IS NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN job_id SET NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN url`);
  }
}
