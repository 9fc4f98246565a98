#!/usr/bin/env node
// CLI entry: `verity start`, `verity accounts create|credit|list`, `verity keys create --account`,
// `verity data update`, and the API
// commands (`verity ping`, `verity batch run`, ...). The API commands are @verity/client's own
// (libs/client/src/cli, also the bin of that package) and are loaded on their own so that they
// start without loading the server (Nest, the database, the engines).
const client = require('../dist/libs/client/src/cli/index.js');
const { isKeysAdminCommand } = require('../dist/apps/verity/src/commands/command.routing.js');
const [command, ...rest] = process.argv.slice(2);
if (command !== undefined && client.isClientCommand(command) && !isKeysAdminCommand(command, rest))
  void client.clientCommand(command, rest);
else require('../dist/apps/verity/src/main.js');
