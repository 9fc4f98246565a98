import {
  AccountsService,
  ApiKeysService,
  ConsoleUsersService,
  CreditsService,
} from '@verity/accounts';
import type { AppConfig } from '@verity/config';
import { UsageError } from '@verity/client/cli';
import { withAccountsContext } from './accounts.context';
import { accountIdArg, parseCommandArgs } from './command.args';

const USAGE = `usage: verity accounts create --name NAME --credits N [--json]
       verity accounts credit --account ID --amount N [--note TEXT] [--json]
       verity accounts list [--json]`;

/**
 * `verity accounts create|credit|list`: the admin API's account creation and top-up, and a
 * listing of every account with its keys, from a shell on the data directory (or
 * DATABASE_URL), with no ADMIN_TOKEN needed.
 */
export async function accountsCommand(config: AppConfig, argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === 'create') return create(config, rest);
  if (action === 'credit') return credit(config, rest);
  if (action === 'list') return list(config, rest);
  throw new UsageError(USAGE);
}

async function create(config: AppConfig, argv: string[]): Promise<void> {
  const values = parseCommandArgs(
    argv,
    {
      name: { type: 'string' },
      credits: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
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
  const values = parseCommandArgs(
    argv,
    {
      account: { type: 'string' },
      amount: { type: 'string' },
      note: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const amount = Number(values.amount);
  if (!values.account)
    throw new UsageError(
      '--account is required: the account id that verity accounts create printed',
    );
  if (values.amount === undefined || !Number.isSafeInteger(amount) || amount <= 0)
    throw new UsageError('--amount must be a whole number of credits greater than 0');
  const account = accountIdArg(values.account, 'the account id that verity accounts list prints');
  const note = values.note?.trim() || 'cli';

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

/**
 * Every account with its balance, keys (names and hints, never values) and console users: how
 * an operator finds the account a lost key belonged to (then `verity keys create --account`).
 */
async function list(config: AppConfig, argv: string[]): Promise<void> {
  const values = parseCommandArgs(argv, { json: { type: 'boolean', default: false } }, USAGE);
  await withAccountsContext(config, async (ctx) => {
    const accounts = await ctx.get(AccountsService).list();
    const rows = [];
    for (const account of accounts) {
      rows.push({
        ...account,
        credits_balance: await ctx.get(CreditsService).balance(account.account_id),
        console_users: await ctx.get(ConsoleUsersService).countForAccount(account.account_id),
        keys: await ctx.get(ApiKeysService).list(account.account_id),
      });
    }
    if (values.json) return void process.stdout.write(JSON.stringify(rows) + '\n');
    if (rows.length === 0)
      return void process.stdout.write(
        'no accounts yet: `verity start` creates the dev account, `verity accounts create` others\n',
      );
    const lines = rows.map((row) => {
      const keys = row.keys.map((k) => `${k.name} (${k.mode}, ${k.hint}…)`).join(', ') || 'none';
      return [
        `${row.account_id}  ${row.name}`,
        `  created ${row.created_at}, ${row.credits_balance.toLocaleString('en')} credits, ${row.console_users} console user(s)`,
        `  keys: ${keys}`,
      ].join('\n');
    });
    process.stdout.write(lines.join('\n') + '\n');
  });
}
