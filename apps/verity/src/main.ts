import 'reflect-metadata';
import { loadConfig, type AppConfig } from '@verity/config';
import { CLIENT_HELP, clientCommand, isClientCommand, UsageError } from '@verity/client/cli';
import { exitOnFailure } from './cli.failure';
import { accountsCommand } from './commands/accounts.command';
import { dataCommand } from './commands/data.command';
import { isKeysAdminCommand } from './commands/command.routing';
import { keysAdminCommand } from './commands/keys.command';
import { startCommand } from './commands/start.command';
import { assertSupportedNode } from './start/startup.checks';
import { usersCommand } from './commands/users.command';

const HELP = `usage: verity <command>

  start                                       run the whole service in one process
  accounts create --name N --credits C [--json]   create an account and print its first API key
  accounts credit --account ID --amount N [--note TEXT] [--json]   add credits to an account
  accounts list [--json]                      every account with its balance, keys and users
  keys create --account ID [--name N] [--mode live|test] [--json]   a new API key for an account
                                              (no running server or other key needed)
  data update                                 download fresh IP open-data lists (Tor, VPN, datacenter)
  users create --account ID --email E [--json]    create a console user and print a one-time sign-in link

API client (talks to a running Verity over HTTP; exit codes in README.md):
${CLIENT_HELP}

Configuration comes from environment variables; see README.md.`;

/** Set once loaded, so that a failure after it can be logged at debug. */
let config: AppConfig | null = null;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    process.stdout.write(HELP + '\n');
    return;
  }
  assertSupportedNode();
  // API commands are a client of a running service: they need no server configuration.
  if (isClientCommand(command) && !isKeysAdminCommand(command, rest))
    return clientCommand(command, rest);
  config = loadConfig();
  switch (command) {
    case 'start':
      return startCommand(config);
    case 'accounts':
      return accountsCommand(config, rest);
    case 'data':
      return dataCommand(config, rest);
    case 'users':
      return usersCommand(config, rest);
    case 'keys':
      return keysAdminCommand(config, rest);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => exitOnFailure(error, config));
