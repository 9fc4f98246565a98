import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The format of a multi-column upload and the result columns a job writes (docs/batch.md,
 * "Multi-column files", "Result columns"): the validated column (0-based), the raw header
 * record (null when the file had none) and the number of columns. input_column is null for the
 * spec's single-column file. Nullable columns and a constant default: no table rewrite.
 */
export class BatchInputFormat1740200000000 implements MigrationInterface {
  name = 'BatchInputFormat1740200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs
         ADD COLUMN input_column integer CHECK (input_column >= 0),
         ADD COLUMN input_header text,
         ADD COLUMN input_width integer CHECK (input_width >= 1),
         ADD COLUMN result_fields text NOT NULL DEFAULT 'spec' CHECK (result_fields IN ('spec', 'all'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE batch_jobs
         DROP COLUMN result_fields,
         DROP COLUMN input_width,
         DROP COLUMN input_header,
         DROP COLUMN input_column`,
    );
  }
}
