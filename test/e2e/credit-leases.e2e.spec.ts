import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreditLeases, type LeaseHold } from '@verity/accounts';
import {
  ADMIN_TOKEN,
  freePort,
  leasesAtRest,
  startTestStack,
  TestClient,
  type TestStack,
} from '@verity/testing';

/**
 * Leases for every balance, settled ten times a second: the lease path is what runs here. The
 * expiry stays well above any stall of a loaded test machine: an instance that stalls past it
 * has its lease recovered and its unsettled calls unbilled (by design), which would change the
 * sums these tests check.
 */
const LEASES = {
  RATE_LIMIT_PER_SECOND: '10000',
  RATE_LIMIT_BURST: '10000',
  CREDIT_LEASE_MIN_BALANCE: '0',
  CREDIT_LEASE_SETTLE_MS: '100',
  CREDIT_LEASE_EXPIRY_MS: '10000',
};

async function accountState(stack: TestStack, accountId: string) {
  const [row] = await stack.dataSource.query(
    `SELECT a.credits_balance AS balance,
       (SELECT COALESCE(sum(delta), 0) FROM credit_ledger WHERE account_id = a.id) AS ledger,
       (SELECT COALESCE(sum(credits), 0) FROM usage_hourly WHERE account_id = a.id) AS usage,
       (SELECT count(*) FROM credit_leases WHERE account_id = a.id AND closed_at IS NULL) AS open
     FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  return {
    balance: Number(row.balance),
    ledger: Number(row.ledger),
    usage: Number(row.usage),
    open: Number(row.open),
  };
}

/** The account once every lease is settled and closed. */
async function atRest(stack: TestStack, accountId: string) {
  await leasesAtRest(stack.dataSource, accountId);
  return accountState(stack, accountId);
}

async function usageByKeyAndOperation(stack: TestStack, accountId: string) {
  const rows: { key_id: string; operation: string; calls: string; credits: string }[] =
    await stack.dataSource.query(
      `SELECT key_id, operation, sum(calls) AS calls, sum(credits) AS credits FROM usage_hourly
       WHERE account_id = $1 GROUP BY 1, 2 HAVING sum(calls) <> 0 OR sum(credits) <> 0`,
      [accountId],
    );
  return new Map(
    rows.map((r) => [`${r.key_id} ${r.operation}`, [Number(r.calls), Number(r.credits)]]),
  );
}

describe('credit leases: two API instances on one database', () => {
  let a: TestStack;
  let b: TestStack;

  before(async () => {
    a = await startTestStack({ env: LEASES });
    b = await startTestStack({ env: LEASES, database: a.database });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('never overdraws: balance 10, 100 parallel calls over both instances → 10 × 200, 90 × 402', async () => {
    const { accountId, apiKey } = await a.account(10);
    const clients = [a.client.withKey(apiKey), b.client.withKey(apiKey)];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        clients[i % 2].post('/v1/email/validate', { email: `user${i}@example.com` }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    // Any other answer fails with its status and error body in the message.
    const others = answers.filter((r) => r.status !== 200 && r.status !== 402);
    assert.deepEqual(
      others.map((r) => `${r.status} ${JSON.stringify(r.body)}`),
      [],
    );
    assert.equal(statuses.filter((s) => s === 200).length, 10);
    assert.equal(statuses.filter((s) => s === 402).length, 90);
    for (const r of answers.filter((x) => x.status === 402)) {
      assert.equal(r.body.error.code, 'insufficient_credits');
      assert.match(r.body.error.message, /https:\/\/console\.verity\.test\/billing/);
    }
    const state = await atRest(a, accountId);
    assert.deepEqual(state, { balance: 0, ledger: 0, usage: 10, open: 0 });
  });

  it('takeNow pays only from credits the lease already holds, and what it gives back costs nothing', async () => {
    const leases = a.app.get(CreditLeases);
    const { accountId } = await a.account(50);
    assert.equal(
      leases.takeNow(accountId, 1),
      undefined,
      'no lease yet: nothing without a reservation',
    );
    const first = await leases.take(accountId, 1);
    assert.ok(first, 'take reserves a block');
    const holds: LeaseHold[] = [first];
    // Synchronous: no refill can land in between, so this drains exactly the reserved block.
    for (let hold = leases.takeNow(accountId, 1); hold; hold = leases.takeNow(accountId, 1)) {
      holds.push(hold);
      if (holds.length > 50) break;
    }
    assert.ok(
      holds.length <= 50,
      `the lease handed out ${holds.length} credits of a balance of 50`,
    );
    assert.equal((await accountState(a, accountId)).open, 1);
    for (const hold of holds) leases.giveBack(hold);
    assert.deepEqual(await atRest(a, accountId), { balance: 50, ledger: 50, usage: 0, open: 0 });
  });

  it('a call the account can pay is not refused while another instance holds its credits', async () => {
    // This instance keeps an idle lease, so it still holds credits when A runs short.
    const holder = await startTestStack({
      env: { ...LEASES, CREDIT_LEASE_IDLE_MS: '600000' },
      database: a.database,
    });
    try {
      const { accountId, apiKey } = await a.account(40);
      const first = await holder.client.withKey(apiKey).post('/v1/ip/intel', { ip: '8.8.8.8' });
      assert.equal(first.status, 200);
      const [held] = await a.dataSource.query(
        `SELECT granted - spent - released AS held FROM credit_leases
         WHERE account_id = $1 AND closed_at IS NULL`,
        [accountId],
      );
      assert.ok(Number(held.held) > 1, 'the other instance holds a lease');
      const onA = a.client.withKey(apiKey);
      let paid = 0;
      for (;;) {
        const r = await onA.post('/v1/ip/intel', { ip: '8.8.8.8' });
        if (r.status !== 200) {
          assert.equal(r.status, 402);
          break;
        }
        paid++;
      }
      assert.equal(paid, 39);
      const [released] = await a.dataSource.query(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'lease_released'`,
        [accountId],
      );
      assert.ok(released.n >= 1, 'the holder gave its credits back through the ledger');
    } finally {
      await holder.close();
    }
  });

  it('at rest the balance equals the ledger sum and usage per key and operation equals what was spent; failed calls cost nothing', async () => {
    const { accountId, apiKey } = await a.account(5_000);
    const second = await a.client.withKey(apiKey).post('/v1/keys', { name: 'second' });
    assert.equal(second.status, 201);
    const keys = [
      { key: apiKey, id: (await a.client.withKey(apiKey).get('/v1/ping')).body.key.id as string },
      { key: second.body.key as string, id: second.body.id as string },
    ];
    const calls: Promise<{ status: number; key: string; op: string; cost: number }>[] = [];
    for (let i = 0; i < 120; i++) {
      const key = keys[i % 2];
      const client = (i % 3 === 0 ? b : a).client.withKey(key.key);
      const [op, path, body, cost] =
        i % 4 === 0
          ? (['verify', '/v1/verify', { ip: '8.8.8.8' }, 3] as const)
          : i % 4 === 1
            ? (['email_validate', '/v1/email/validate', { email: `u${i}@example.com` }, 1] as const)
            : i % 4 === 2
              ? (['ip_intel', '/v1/ip/intel', { ip: '1.1.1.1' }, 1] as const)
              : // No HLR provider is configured: 503, refunded.
                ([
                  'phone_validate_hlr',
                  '/v1/phone/validate',
                  { phone: '+14155552671', hlr: true },
                  5,
                ] as const);
      calls.push(
        client.post(path, body).then((r) => ({ status: r.status, key: key.id, op, cost })),
      );
    }
    const done = await Promise.all(calls);
    assert.ok(done.filter((c) => c.op === 'phone_validate_hlr').every((c) => c.status === 503));
    const expected = new Map<string, [number, number]>();
    let spent = 0;
    for (const c of done.filter((x) => x.status === 200)) {
      const id = `${c.key} ${c.op}`;
      const [calls, credits] = expected.get(id) ?? [0, 0];
      expected.set(id, [calls + 1, credits + c.cost]);
      spent += c.cost;
    }
    assert.equal(spent, 30 * 3 + 30 + 30);
    const state = await atRest(a, accountId);
    assert.equal(state.balance, 5_000 - spent);
    assert.equal(state.ledger, state.balance);
    assert.equal(state.usage, spent);
    assert.deepEqual(await usageByKeyAndOperation(a, accountId), expected);
    assert.equal(
      (await a.client.withKey(apiKey).get('/v1/ping')).body.credits_remaining,
      5_000 - spent,
    );
  });

  it('a top-up on one instance pays the next call on the other at once', async () => {
    const { accountId, apiKey } = await a.account(2);
    const onB = b.client.withKey(apiKey);
    assert.equal((await onB.post('/v1/verify', { ip: '8.8.8.8' })).status, 402);
    const topUp = await a.client.post(
      `/admin/accounts/${accountId}/credits`,
      { amount: 5_000 },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(topUp.status, 200);
    assert.equal((await onB.post('/v1/verify', { ip: '8.8.8.8' })).status, 200);
    assert.equal((await onB.get('/v1/ping')).body.credits_remaining, 5_002 - 3);
  });

  it('ping counts what this instance spent and has not settled yet', async () => {
    const { apiKey } = await a.account(2_000);
    const client = a.client.withKey(apiKey);
    for (let i = 0; i < 7; i++)
      assert.equal((await client.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 2_000 - 7);
  });

  it('a top-up answers the balance ping shows, credits held in leases included', async () => {
    const { accountId, apiKey } = await a.account(2_000);
    const client = a.client.withKey(apiKey);
    for (let i = 0; i < 3; i++)
      assert.equal((await client.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
    const held: { held: string }[] = await a.dataSource.query(
      `SELECT COALESCE(sum(granted - spent - released), 0) AS held FROM credit_leases
       WHERE account_id = $1 AND closed_at IS NULL`,
      [accountId],
    );
    assert.ok(Number(held[0].held) > 0, 'the calls were paid from an open lease');
    const topUp = await a.client.post(
      `/admin/accounts/${accountId}/credits`,
      { amount: 500 },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(topUp.status, 200);
    assert.equal(topUp.body.credits_balance, 2_000 - 3 + 500);
    assert.equal((await client.get('/v1/ping')).body.credits_remaining, 2_000 - 3 + 500);
  });

  it('kill -9 of an instance: its lease is recovered, at most the calls since its last settle go unbilled, nothing is overcharged', async () => {
    const { accountId, apiKey } = await a.account(1_000);
    const port = await freePort();
    const home = await mkdtemp(join(tmpdir(), 'verity-lease-kill-'));
    const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
      env: {
        ...process.env,
        ...LEASES,
        DATA_REFRESH_INTERVAL: 'off',
        NODE_ENV: 'test',
        DATABASE_URL: a.database.url,
        DATABASE_POOL_SIZE: '3',
        DNS_SERVERS: a.config.DNS_SERVERS.map((d) => `${d.host}:${d.port}`).join(','),
        VERITY_HOME: home,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const onChild = new TestClient(`http://127.0.0.1:${port}`).withKey(apiKey);
      for (let i = 0; ; i++) {
        const up = await onChild.get('/healthz').catch(() => null);
        if (up?.status === 200) break;
        if (i > 600) throw new Error('the child API never became healthy');
        await sleep(100);
      }
      for (let i = 0; i < 5; i++)
        assert.equal((await onChild.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
      // Wait for the child's settle of those five, then three more calls and the kill.
      for (let i = 0; ; i++) {
        const [lease] = await a.dataSource.query(
          'SELECT spent FROM credit_leases WHERE account_id = $1 AND closed_at IS NULL',
          [accountId],
        );
        if (Number(lease?.spent) === 5) break;
        if (i > 600) throw new Error('the child never settled');
        await sleep(20);
      }
      for (let i = 0; i < 3; i++)
        assert.equal((await onChild.post('/v1/ip/intel', { ip: '8.8.8.8' })).status, 200);
      child.kill('SIGKILL');
      await exited;
      // Instance A sweeps: the lease is recovered once CREDIT_LEASE_EXPIRY_MS has passed.
      const state = await atRest(a, accountId);
      assert.ok(state.balance <= 1_000 - 5, `balance ${state.balance}: settled calls stay billed`);
      assert.ok(state.balance >= 1_000 - 8, `balance ${state.balance}: never more than served`);
      assert.equal(state.ledger, state.balance);
      assert.equal(state.usage, 1_000 - state.balance);
      const [recovered] = await a.dataSource.query(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'lease_recovered'`,
        [accountId],
      );
      assert.equal(recovered.n, 1);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await rm(home, { recursive: true, force: true });
    }
  });
});
