/**
 * True for `verity keys …` naming an account (`keys create --account ID`): the operator's
 * data-directory form, not the API client's `keys` (which acts on the calling key's account).
 * Free of the server's imports: bin/verity.js asks it before loading anything heavy.
 */
export function isKeysAdminCommand(command: string | undefined, argv: readonly string[]): boolean {
  return (
    command === 'keys' && argv.some((arg) => arg === '--account' || arg.startsWith('--account='))
  );
}
