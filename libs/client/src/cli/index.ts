// The `verity` command's API commands, for the repository's all-in-one `verity` (which adds
// `start`, `accounts`, `data` and `users`) and for the package's own bin (main.ts).
export { CLIENT_HELP, clientCommand, isClientCommand } from './client.command';
export { EXIT } from './exit-codes';
export { UsageError } from './usage.error';
