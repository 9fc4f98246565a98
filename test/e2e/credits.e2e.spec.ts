import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestStack } from '@verity/testing';

async function ledger(stack: TestStack, accountId: string) {
  const [{ sum, count }] = await stack.dataSource.query(
    'SELECT COALESCE(SUM(delta), 0)::bigint AS sum, COUNT(*)::int AS count FROM credit_ledger WHERE account_id = $1',
    [accountId],
  );
  const [{ credits_balance }] = await stack.dataSource.query(
    'SELECT credits_balance FROM accounts WHERE id = $1',
    [accountId],
  );
  return { sum: Number(sum), count: Number(count), balance: Number(credits_balance) };
}

describe('credits: ledger, charging and concurrency', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
    });
  });
  after(() => stack.close());

  it('charges exactly the listed cost per operation and reports credits_used', async () => {
    const { accountId, client } = await stack.account(100);
    const email = await client.post('/v1/email/validate', { email: 'a@example.com' });
    const phone = await client.post('/v1/phone/validate', { phone: '+14155552671' });
    const ip = await client.post('/v1/ip/intel', { ip: '8.8.8.8' });
    const verify = await client.post('/v1/verify', {
      email: 'a@example.com',
      phone: '+14155552671',
      ip: '8.8.8.8',
    });
    assert.deepEqual(
      [
        email.body.credits_used,
        phone.body.credits_used,
        ip.body.credits_used,
        verify.body.credits_used,
      ],
      [1, 1, 1, 3],
    );
    const state = await ledger(stack, accountId);
    assert.equal(state.balance, 100 - 6);
    assert.equal(state.sum, state.balance);
  });

  it('with a balance of 10, 100 parallel calls give exactly 10 × 200 and 90 × 402', async () => {
    const { accountId, client } = await stack.account(10);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        client.post('/v1/email/validate', { email: `user${i}@example.com` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 10);
    assert.equal(statuses.filter((s) => s === 402).length, 90);
    for (const a of answers.filter((x) => x.status === 402))
      assert.equal(a.body.error.code, 'insufficient_credits');
    const state = await ledger(stack, accountId);
    assert.equal(state.balance, 0);
    assert.equal(state.sum, 0);
    assert.equal(state.count, 1 + 10);
  });

  it('verify costs 3 whatever the number of signals, and needs 3 in the balance', async () => {
    const { client } = await stack.account(5);
    assert.equal((await client.post('/v1/verify', { ip: '8.8.8.8' })).body.credits_used, 3);
    const short = await client.post('/v1/verify', { ip: '8.8.8.8' });
    assert.equal(short.status, 402);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 2);
  });

  it('a failed call is refunded in the ledger: balance unchanged, ledger sums to balance, no usage', async () => {
    const { accountId, client } = await stack.account(7);
    const res = await client.post('/v1/phone/validate', { phone: '+14155552671', hlr: true });
    assert.equal(res.status, 503);
    const state = await ledger(stack, accountId);
    assert.equal(state.balance, 7);
    assert.equal(state.sum, 7);
    // Charged and refunded directly (the balance is below a lease): the usage row it netted
    // to zero is removed with the refund, so the console shows no call of it.
    const usage = await stack.dataSource.query(
      'SELECT operation, calls, credits FROM usage_hourly WHERE account_id = $1',
      [accountId],
    );
    assert.deepEqual(usage, []);
  });

  it('the ledger is append-only', async () => {
    const { accountId } = await stack.account(3);
    await assert.rejects(
      stack.dataSource.query('UPDATE credit_ledger SET delta = 1000 WHERE account_id = $1', [
        accountId,
      ]),
      /append-only/,
    );
    await assert.rejects(
      stack.dataSource.query('DELETE FROM credit_ledger WHERE account_id = $1', [accountId]),
      /append-only/,
    );
  });
});
