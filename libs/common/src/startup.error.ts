/** The start-up failures a person can cause and fix; each gets one sentence, never a stack. */
export type StartupFailure =
  | 'port_in_use'
  | 'port_unavailable'
  | 'data_dir_not_writable'
  | 'data_dir_locked'
  | 'node_unsupported'
  | 'database_user_missing'
  | 'embedded_database_not_installed';

/**
 * A process could not start for a reason its operator can fix. The message is one sentence
 * naming the cause and the fix, printed as is; `cause` keeps the underlying error for the
 * debug log.
 */
export class StartupError extends Error {
  constructor(
    readonly failure: StartupFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** The errno code of a Node system error (EADDRINUSE, EACCES…), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
