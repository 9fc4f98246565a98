import 'reflect-metadata';
import { ConfigError, loadConfig } from '@verity/config';
import { accountsCommand } from './commands/accounts.command';
import { dataCommand } from './commands/data.command';
import { startCommand } from './commands/start.command';
import { UsageError } from './commands/usage.error';

const HELP = `usage: verity <command>

  start                                       run the whole service in one process
  accounts create --name N --credits C [--json]   create an account and print its first API key
  data update                                 download fresh IP open-data lists (Tor, VPN, datacenter)

Configuration comes from environment variables; see README.md.`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    process.stdout.write(HELP + '\n');
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'start':
      return startCommand(config);
    case 'accounts':
      return accountsCommand(config, rest);
    case 'data':
      return dataCommand(config, rest);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`verity: ${error.message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  process.stderr.write(
    `verity: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
