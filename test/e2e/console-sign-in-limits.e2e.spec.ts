import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConsoleUsersService } from '@verity/accounts';
import {
  ConsoleClient,
  CONSOLE_PASSWORD,
  consoleUser,
  startTestStack,
  type TestResponse,
  type TestStack,
} from '@verity/testing';

/** A browser with no cookies, speaking from `address` (X-Forwarded-For from the loopback proxy). */
function stranger(stack: TestStack, address: string, email: string, password: string) {
  return new ConsoleClient(stack.client.baseUrl).post(
    '/auth/login',
    { email, password },
    { 'x-forwarded-for': address },
  );
}

function retryAfter(res: TestResponse): number {
  return Number(res.headers.get('retry-after'));
}

/** The console's sign-in limits on two API instances sharing one database (docs/console.md). */
describe('console sign-in limits: per account across addresses, per address, trusted browsers', () => {
  let a: TestStack;
  let b: TestStack;
  const env = {
    TRUST_PROXY: '127.0.0.1',
    CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL: '3',
    CONSOLE_LOGIN_MAX_FAILURES_PER_IP: '5',
  };

  before(async () => {
    a = await startTestStack({ env });
    b = await startTestStack({ env, database: a.database });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('caps guesses for one account from any number of addresses and instances; its trusted browser still signs in', async () => {
    const { browser } = await consoleUser(a, 10, 'victim@example.test');
    const answers: TestResponse[] = [];
    for (let i = 1; i <= 6; i++) {
      const stack = i % 2 === 0 ? b : a;
      answers.push(await stranger(stack, `203.0.113.${i}`, 'Victim@Example.test', 'guess ' + i));
    }
    assert.deepEqual(
      answers.map((r) => r.status),
      [401, 401, 401, 429, 429, 429],
    );
    for (const refused of answers.slice(3)) {
      assert.equal(refused.body.error.code, 'rate_limited');
      assert.match(
        refused.body.error.message,
        /^Too many failed sign-ins; try again in \d+ seconds$/,
      );
      assert.ok(retryAfter(refused) >= 1, String(retryAfter(refused)));
    }
    // Refused before the password is checked: the right one from a new address is refused too.
    const right = await stranger(b, '203.0.113.99', 'victim@example.test', CONSOLE_PASSWORD);
    assert.equal(right.status, 429);
    // The browser that signed in before is trusted for its own attempts, on either instance.
    const trusted = await browser.login('victim@example.test', CONSOLE_PASSWORD);
    assert.equal(trusted.status, 200, JSON.stringify(trusted.body));
    const onB = new ConsoleClient(b.client.baseUrl);
    for (const [name, value] of browser.cookies) onB.cookies.set(name, value);
    assert.equal((await onB.login('victim@example.test', CONSOLE_PASSWORD)).status, 200);
  });

  it('answers an unknown email exactly as a known one', async () => {
    await consoleUser(a, 10, 'known@example.test');
    const run = async (email: string, net: string) => {
      const answers: TestResponse[] = [];
      for (let i = 1; i <= 5; i++)
        answers.push(await stranger(a, `${net}.${i}`, email, 'wrong password'));
      return answers.map((r) => [r.status, r.body.error.message.replace(/\d+/, 'N')]);
    };
    assert.deepEqual(
      await run('nobody@example.test', '198.51.100'),
      await run('known@example.test', '192.0.2'),
    );
  });

  it("a trusted browser's wrong passwords spend only its own budget", async () => {
    const { browser } = await consoleUser(a, 10, 'owner@example.test');
    const [user] = await a.dataSource.query(
      `SELECT id FROM console_users WHERE email = 'owner@example.test'`,
    );
    const laptop = new ConsoleClient(a.client.baseUrl);
    const link = await a.app.get(ConsoleUsersService).issueLink(user.id);
    assert.equal((await laptop.redeem(link.url)).status, 200);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await browser.login('owner@example.test', 'mistyped')).status);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    assert.equal((await browser.login('owner@example.test', CONSOLE_PASSWORD)).status, 429);
    // The other trusted browser, and strangers (the email's own budget is untouched), go on.
    assert.equal((await laptop.login('owner@example.test', CONSOLE_PASSWORD)).status, 200);
    const fresh = await stranger(a, '198.18.0.1', 'owner@example.test', CONSOLE_PASSWORD);
    assert.equal(fresh.status, 200);
  });

  it('a device cookie is trusted only for the email it was issued for', async () => {
    const { browser } = await consoleUser(a, 10, 'first@example.test');
    await consoleUser(a, 10, 'second@example.test');
    for (let i = 1; i <= 3; i++)
      assert.equal((await stranger(a, `198.18.1.${i}`, 'second@example.test', 'x')).status, 401);
    // The first user's browser is a stranger to the second email: its budget is spent.
    assert.equal((await browser.login('second@example.test', CONSOLE_PASSWORD)).status, 429);
  });

  it('counts an IPv6 /64 as one address, over any emails', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push(
        (await stranger(a, `2001:db8:5:6::${i.toString(16)}`, `someone${i}@example.test`, 'x'))
          .status,
      );
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    const otherNet = await stranger(a, '2001:db8:5:7::1', 'someone9@example.test', 'x');
    assert.equal(otherNet.status, 401);
  });
});
