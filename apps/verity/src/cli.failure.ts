import { StartupError, VerityError } from '@verity/common';
import { ConfigError, type AppConfig } from '@verity/config';
import { EXIT, UsageError } from '@verity/client/cli';
import { createLogger } from '@verity/platform';

/**
 * A command line the data refuses: it names something that does not exist (an unknown account
 * id) or asks for what cannot be (a key name an active key of the account has).
 */
function isRefused(error: unknown): error is VerityError {
  return (
    error instanceof VerityError && (error.code === 'not_found' || error.code === 'unprocessable')
  );
}

/** The one line a person reads for a failure they can fix, or null for anything else (a bug). */
function sentence(error: unknown): string | null {
  if (error instanceof StartupError || error instanceof UsageError) return error.message;
  if (isRefused(error)) return error.message;
  if (error instanceof ConfigError) {
    const settings = error.issues.length > 1 ? 'these settings' : 'this setting';
    return `Invalid configuration, ${error.issues.join('; ')}: fix ${settings} in the environment (README.md, "Configuration", lists them all).`;
  }
  return null;
}

/** The exit code, from the table the API commands use (README, "The verity command"). */
function exitCode(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (isRefused(error)) return EXIT.refused;
  return EXIT.failure;
}

/**
 * Ends the CLI after a failure: a failure a person can fix prints one sentence on stderr (no
 * stack) and exits 1 (2 for a wrong command line, 3 for a refused one such as an unknown
 * account or a key name taken), with the full error in the log at debug; anything else prints its stack and exits 1.
 */
export function exitOnFailure(error: unknown, config: AppConfig | null): never {
  const line = sentence(error);
  if (config) createLogger(config, 'verity').debug({ err: error }, 'verity stopped at start-up');
  process.stderr.write(
    `verity: ${line ?? (error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  process.exit(exitCode(error));
}
