import { parseArgs } from 'node:util';
import { AccountsService, CreditsService } from '@verity/accounts';
import { VerityError } from '@verity/common';
import type { AppConfig } from '@verity/config';
import { UsageError } from '@verity/client/cli';
import { withAccountsContext } from './accounts.context';

const USAGE = `usage: verity accounts create --name NAME --credits N [--json]
       verity accounts credit --account ID --amount N [--note TEXT] [--json]`;

/** Account ids are UUIDs: anything else names no account. */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `parseArgs` whose complaints are usage errors. */
function parse<O extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
}

/**
 * `verity accounts create|credit`: the admin API's account creation and top-up from a shell,
 * on the data directory (or DATABASE_URL), with no ADMIN_TOKEN needed.
 */
export async function accountsCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === 'create') return create(config, rest);
  if (action === 'credit') return credit(config, rest);
  throw new UsageError(USAGE);
}

async function create(config: AppConfig, argv: string[]): Promise<void> {
  const values = parse(argv, {
    name: { type: 'string' },
    credits: { type: 'string' },
    json: { type: 'boolean', default: false },
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

/** Adds credits as a top-up in the ledger (reference: the note, else `cli`). */
async function credit(config: AppConfig, argv: string[]): Promise<void> {
  const values = parse(argv, {
    account: { type: 'string' },
    amount: { type: 'string' },
    note: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const account = values.account;
  const amount = Number(values.amount);
  if (!account)
    throw new UsageError(
      '--account is required: the account id that verity accounts create printed',
    );
  if (values.amount === undefined || !Number.isSafeInteger(amount) || amount <= 0)
    throw new UsageError('--amount must be a whole number of credits greater than 0');
  const note = values.note?.trim() || 'cli';
  if (!ACCOUNT_ID.test(account)) throw new VerityError('not_found', `account ${account} not found`);

  await withAccountsContext(config, async (ctx) => {
    await ctx.get(AccountsService).addCredits(account, amount, note);
    // The balance the account's keys see (GET /v1/ping credits_remaining), as the admin API answers.
    const balance = await ctx.get(CreditsService).balance(account);
    process.stdout.write(
      values.json
        ? JSON.stringify({ account_id: account, credits_balance: balance }) + '\n'
        : `added ${amount.toLocaleString('en')} credits to ${account}; balance ${balance.toLocaleString('en')}\n`,
    );
  });
}
