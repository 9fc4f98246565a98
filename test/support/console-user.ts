import assert from 'node:assert/strict';
import { ConsoleClient } from './console-client';
import { ADMIN_TOKEN, type TestStack } from './test-stack';

/** The password `consoleUser` sets. */
export const CONSOLE_PASSWORD = 'correct horse battery';

/**
 * An account created by `POST /admin/accounts` with `email` as its owner, whose console user
 * has redeemed the sign-in link and set CONSOLE_PASSWORD; its signed-in browser and first key.
 */
export async function consoleUser(
  stack: TestStack,
  credits: number,
  email: string,
): Promise<{ browser: ConsoleClient; accountId: string; apiKey: string }> {
  const created = await stack.client.post(
    '/admin/accounts',
    { name: email, credits, owner_email: email },
    { authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const browser = new ConsoleClient(stack.client.baseUrl);
  assert.equal((await browser.redeem(created.body.sign_in_url)).status, 200);
  assert.equal((await browser.post('/auth/password', { password: CONSOLE_PASSWORD })).status, 200);
  return {
    browser,
    accountId: created.body.account_id as string,
    apiKey: created.body.api_key as string,
  };
}
