import { parseArgs } from 'node:util';
import { ConsoleUsersService } from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import { withAccountsContext } from './accounts.context';
import { UsageError } from '@verity/client/cli';

export const USERS_USAGE = 'usage: verity users create --account ID --email EMAIL [--json]';

/**
 * `verity users create --account ID --email E`: a console user for an account (or the same one
 * again) and a fresh one-time sign-in link, like `owner_email` on POST /admin/accounts.
 */
export async function usersCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'create') throw new UsageError(USERS_USAGE);
  const { values } = parseArgs({
    args: rest,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const { account, email } = values;
  if (!account || !email) throw new UsageError(USERS_USAGE);

  await withAccountsContext(config, async (ctx) => {
    const link = await ctx.get(ConsoleUsersService).createWithLink(account, email);
    process.stdout.write(
      values.json
        ? JSON.stringify({ sign_in_url: link.url, expires_at: link.expires_at }) + '\n'
        : `sign_in_url: ${link.url}\n(one use only, expires ${link.expires_at})\n`,
    );
  });
}
