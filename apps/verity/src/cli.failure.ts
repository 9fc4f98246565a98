import { StartupError } from '@verity/common';
import { ConfigError, type AppConfig } from '@verity/config';
import { createLogger } from '@verity/platform';
import { UsageError } from '@verity/client/cli';

/** The one line a person reads for a failure they can fix, or null for anything else (a bug). */
function sentence(error: unknown): string | null {
  if (error instanceof StartupError || error instanceof UsageError) return error.message;
  if (error instanceof ConfigError) {
    const settings = error.issues.length > 1 ? 'these settings' : 'this setting';
    return `Invalid configuration, ${error.issues.join('; ')}: fix ${settings} in the environment (README.md, "Configuration", lists them all).`;
  }
  return null;
}

/**
 * Ends the CLI after a failure: a failure a person can fix prints one sentence on stderr (no
 * stack) and exits 1 (2 for a wrong command line), with the full error in the log at debug;
 * anything else prints its stack and exits 1.
 */
export function exitOnFailure(error: unknown, config: AppConfig | null): never {
  const line = sentence(error);
  if (config) createLogger(config, 'verity').debug({ err: error }, 'verity stopped at start-up');
  process.stderr.write(
    `verity: ${line ?? (error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  process.exit(error instanceof UsageError ? 2 : 1);
}
