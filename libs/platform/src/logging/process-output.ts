import type { Logger } from 'pino';

/**
 * Routes what Node.js prints on its own into the process's log, in the same JSON shape:
 * process warnings (the AWS SDK's Node.js-version notice, deprecations) at warn instead of
 * Node's stderr text, and an uncaught error as a fatal line (written at once, see
 * stdoutDestination) just before Node prints it and exits.
 */
export function routeProcessOutput(logger: Logger): void {
  process.removeAllListeners('warning'); // Node's own printer
  process.on('warning', (warning: Error & { code?: string }) =>
    logger.warn({ warning: { name: warning.name, code: warning.code } }, warning.message),
  );
  process.on('uncaughtExceptionMonitor', (error, origin) =>
    logger.fatal({ err: error, origin }, 'uncaught error: the process exits'),
  );
}
