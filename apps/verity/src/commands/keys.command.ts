import { ApiKeysService, AccountsService } from '@verity/accounts';
import { VerityError } from '@verity/common';
import type { AppConfig } from '@verity/config';
import { UsageError } from '@verity/client/cli';
import { withAccountsContext } from './accounts.context';
import { accountIdArg, parseCommandArgs } from './command.args';

export const KEYS_USAGE =
  'usage: verity keys create --account ID [--name NAME] [--mode live|test] [--json]';

/** True for `verity keys …` naming an account: the data-directory form, not the API client's. */
export function isKeysAdminCommand(command: string, argv: readonly string[]): boolean {
  return (
    command === 'keys' && argv.some((arg) => arg === '--account' || arg.startsWith('--account='))
  );
}

/**
 * `verity keys create --account ID`: a new API key for any account, on the data directory (or
 * DATABASE_URL), with no running server and no other key: how an operator recovers an account
 * whose keys are lost. The value is printed once.
 */
export async function keysAdminCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'create') throw new UsageError(KEYS_USAGE);
  const values = parseCommandArgs(
    rest,
    {
      account: { type: 'string' },
      name: { type: 'string' },
      mode: { type: 'string', default: 'live' },
      json: { type: 'boolean', default: false },
    },
    KEYS_USAGE,
  );
  const account = accountIdArg(values.account, 'an account id from verity accounts list');
  const name = values.name?.trim();
  if (name === '') throw new UsageError('--name must not be empty');
  if (values.mode !== 'live' && values.mode !== 'test')
    throw new UsageError('--mode must be live or test');
  const mode = values.mode;

  await withAccountsContext(config, async (ctx) => {
    if (!(await ctx.get(AccountsService).exists(account)))
      throw new VerityError('not_found', `account ${account} not found`);
    const keys = ctx.get(ApiKeysService);
    // Without --name: `cli`, or `cli (2)`, … when the account has a live key named so.
    const issued = await keys.create(
      account,
      name ?? (await keys.freeName(account, mode, 'cli')),
      undefined,
      mode,
    );
    process.stdout.write(
      values.json
        ? JSON.stringify({ account_id: account, ...issued }) + '\n'
        : `key_id:  ${issued.id}\napi_key: ${issued.key}   (shown only this once)\n`,
    );
  });
}
