import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseError } from 'pg';
import { isTransactionConflict, retryOnTransactionConflict } from './transaction-conflict';

function pgError(code: string): DatabaseError {
  const e = new DatabaseError('server said no', 0, 'error');
  e.code = code;
  return e;
}

describe('transaction conflicts', () => {
  it('deadlock_detected and serialization_failure are conflicts, directly or inside TypeORM', () => {
    for (const code of ['40P01', '40001']) {
      assert.equal(isTransactionConflict(pgError(code)), true, code);
      const wrapped = Object.assign(new Error('query failed'), { driverError: pgError(code) });
      assert.equal(isTransactionConflict(wrapped), true, `wrapped ${code}`);
    }
    for (const code of ['23505', '55P03', '57014', '08006', '40002'])
      assert.equal(isTransactionConflict(pgError(code)), false, code);
    for (const value of [null, undefined, 'deadlock detected', 40001, new Error('40P01')])
      assert.equal(isTransactionConflict(value), false, String(value));
  });

  it('runs the transaction again while it is aborted for a conflict, up to the attempts given', async () => {
    let runs = 0;
    const result = await retryOnTransactionConflict(() => {
      runs += 1;
      return runs < 3 ? Promise.reject(pgError('40P01')) : Promise.resolve('committed');
    });
    assert.equal(result, 'committed');
    assert.equal(runs, 3);

    runs = 0;
    const always = retryOnTransactionConflict(() => {
      runs += 1;
      return Promise.reject(pgError('40001'));
    }, 2);
    await assert.rejects(always, (e: DatabaseError) => e.code === '40001');
    assert.equal(runs, 2);
  });

  it('any other error is thrown at once, without a second run', async () => {
    let runs = 0;
    const failing = retryOnTransactionConflict(() => {
      runs += 1;
      return Promise.reject(pgError('23505'));
    });
    await assert.rejects(failing, (e: DatabaseError) => e.code === '23505');
    assert.equal(runs, 1);
  });
});
