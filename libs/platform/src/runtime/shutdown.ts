import type { Logger } from 'pino';

/**
 * The process's one signal handler (Nest's enableShutdownHooks is not used: it re-raises the
 * signal after closing, which would race this exit code). On SIGTERM or SIGINT runs `close` once (stop taking work, finish in-flight work, release
 * connections) and exits; if that takes longer than `timeoutMs` the process exits anyway.
 */
export function exitOnSignal(logger: Logger, timeoutMs: number, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    close().then(
      () => {
        logger.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
