import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The country of a phone job's rows (docs/batch.md, "Phone numbers and their country"): the
 * `country_hint` of every row (ISO 3166-1 alpha-2, upper case) and the resolved
 * `country_column` (0-based) of a multi-column file. Nullable columns: no table rewrite.
 */
export class BatchCountry1741500000000 implements MigrationInterface {
  name = 'BatchCountry1741500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs
         ADD COLUMN country_hint text CHECK (country_hint ~ '^[A-Z]{2}$'),
         ADD COLUMN country_column integer CHECK (country_column >= 0)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs
         DROP COLUMN country_column,
         DROP COLUMN country_hint`,
    );
  }
}
