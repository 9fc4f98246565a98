import { parseArgs } from 'node:util';
import { AccountsService } from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import { withAccountsContext } from './accounts.context';
import { UsageError } from '@verity/client/cli';

/** `verity accounts create --name N --credits C [--json]`: the admin API from a shell. */
export async function accountsCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'create')
    throw new UsageError('usage: verity accounts create --name NAME --credits N [--json]');
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const name = values.name?.trim();
  const credits = Number(values.credits ?? '0');
  if (!name) throw new UsageError('--name is required');
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new UsageError('--credits must be a non-negative integer');

  await withAccountsContext(config, async (ctx) => {
    const created = await ctx.get(AccountsService).create(name, credits);
    process.stdout.write(
      values.json
        ? JSON.stringify(created) + '\n'
        : `account_id: ${created.account_id}\napi_key:    ${created.api_key}   (shown only this once)\n`,
    );
  });
}
