import { ConsoleUsersService } from '@verity/accounts';
import type { AppConfig } from '@verity/config';

/** Email of the dev account's console user, created by the first `npm start`. */
export const DEV_CONSOLE_EMAIL = 'dev@localhost.localdomain';

/** The start banner's console row, and on the first start the one-time sign-in block. */
export interface ConsoleSignIn {
  url: string;
  block: string[] | null;
}

/**
 * On the start that created the dev account it also creates that account's console user and
 * returns its one-time sign-in link, printed once like the key; later starts only say where
 * the console is.
 */
export async function consoleSignIn(
  app: { get<T>(type: new (...args: never[]) => T): T },
  config: AppConfig,
  devAccountId: string | null,
): Promise<ConsoleSignIn> {
  if (devAccountId === null) return { url: config.CONSOLE_URL, block: null };
  const link = await app.get(ConsoleUsersService).createWithLink(devAccountId, DEV_CONSOLE_EMAIL);
  return {
    url: config.CONSOLE_URL,
    block: [
      `Sign in to the console as ${DEV_CONSOLE_EMAIL} with this one-time link (single use,`,
      `expires ${link.expires_at}), then choose a password:`,
      '',
      `  ${link.url}`,
    ],
  };
}
