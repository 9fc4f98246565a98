#!/usr/bin/env node
// CLI entry: `verity start`, `verity accounts create`, `verity data update`, and the API
// client commands (`verity ping`, `verity batch run`, ...). The client commands are loaded on
// their own so that they start without loading the server (Nest, TypeORM, the engines).
const client = require('../dist/apps/verity/src/client/client.command.js');
const [command, ...rest] = process.argv.slice(2);
if (command !== undefined && client.isClientCommand(command))
  void client.clientCommand(command, rest);
else require('../dist/apps/verity/src/main.js');
