import type { DataSource, QueryRunner } from 'typeorm';

/** Runs `work` in a transaction of its own connection, committed unless it throws. */
export async function inTransaction<T>(
  db: DataSource,
  work: (runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const result = await work(runner);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}
