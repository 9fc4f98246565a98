import { AccountsService, ApiKeysService, ConsoleUsersService } from '@verity/accounts';
import type { SignInLink } from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import type { FirstRunMarker } from './first-run.marker';

/** Email of the dev account's console user, created by the first `npm start`. */
export const DEV_CONSOLE_EMAIL = 'dev@localhost.localdomain';

/** What the banner shows a newcomer: the dev account's API key and one-time sign-in link. */
export interface DevAccess {
  accountId: string;
  apiKey: string;
  link: SignInLink;
  /** True when this start created the account; false when it reissued what was never shown. */
  created: boolean;
}

interface Resolver {
  get<T>(type: new (...args: never[]) => T): T;
}

/**
 * The dev account's key and link for this start's banner, or null when a banner already showed
 * them. On a database without accounts it creates the dev account, its key and its console
 * user in one transaction, recording them in `marker` before that commits; when `marker` still
 * names an account (an earlier start stopped before its banner), it issues a new key and link
 * for it, since the values made then were never shown to anyone.
 */
export async function devAccess(
  app: Resolver,
  config: AppConfig,
  marker: FirstRunMarker,
): Promise<DevAccess | null> {
  const accounts = app.get(AccountsService);
  const users = app.get(ConsoleUsersService);
  if ((await accounts.count()) === 0) {
    const [created, link] = await accounts.createWith(
      'dev',
      config.DEV_ACCOUNT_CREDITS,
      async (manager, accountId) => {
        // Before the commit: a marker naming an account that never committed is ignored below.
        await marker.set(accountId);
        return users.createWithLink(accountId, DEV_CONSOLE_EMAIL, manager);
      },
    );
    return { accountId: created.account_id, apiKey: created.api_key, link, created: true };
  }
  const pending = await marker.pending();
  if (pending === null || !(await accounts.exists(pending))) {
    await marker.clear();
    return null;
  }
  const keys = app.get(ApiKeysService);
  // Each start that reissues names its key apart: `dev (reissued)`, `dev (reissued) (2)`, …
  const key = await keys.create(pending, await keys.freeName(pending, 'live', 'dev (reissued)'));
  const link = await users.createWithLink(pending, DEV_CONSOLE_EMAIL);
  return { accountId: pending, apiKey: key.key, link, created: false };
}

/** The banner's paragraphs for `access`: the key with a first call to try, then the link. */
export function devAccessBlocks(access: DevAccess, config: AppConfig, base: string): string[][] {
  const { apiKey, link } = access;
  return [
    [
      access.created
        ? `A dev account was created with ${config.DEV_ACCOUNT_CREDITS} credits. Its API key (shown only this once):`
        : 'The last start stopped before it showed the dev account its key. A new one (shown only this once):',
      '',
      `  ${apiKey}`,
      '',
      `Try: curl -s -H "X-Api-Key: ${apiKey}" ${base}/v1/ping`,
    ],
    [
      `Sign in to the console as ${DEV_CONSOLE_EMAIL} with this one-time link (single use,`,
      `expires ${link.expires_at}), then choose a password:`,
      '',
      `  ${link.url}`,
    ],
  ];
}
