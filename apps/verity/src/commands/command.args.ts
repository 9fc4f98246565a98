import { parseArgs } from 'node:util';
import { VerityError } from '@verity/common';
import { UsageError } from '@verity/client/cli';

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** `parseArgs` (strict) whose complaints are usage errors ending with `usage`. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
}

/** Account ids are UUIDs: anything else names no account. */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `--account` value, required and well formed (a malformed one is an unknown account). */
export function accountIdArg(account: string | undefined, hint: string): string {
  if (!account) throw new UsageError(`--account is required: ${hint}`);
  if (!ACCOUNT_ID.test(account)) throw new VerityError('not_found', `account ${account} not found`);
  return account;
}
