#!/usr/bin/env node
// The `verity` bin of @verity/client: the API commands, talking to a running Verity over HTTP.
import { CLIENT_HELP, clientCommand, isClientCommand } from './client.command';
import { EXIT } from './exit-codes';

const HELP = `usage: verity <command>

${CLIENT_HELP}

Exit codes: see the README of @verity/client.`;

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === 'help' || command === '--help') {
  process.stdout.write(HELP + '\n');
} else if (isClientCommand(command)) {
  void clientCommand(command, rest);
} else {
  process.stderr.write(`verity: unknown command "${command}"\n\n${HELP}\n`);
  process.exitCode = EXIT.usage;
}
