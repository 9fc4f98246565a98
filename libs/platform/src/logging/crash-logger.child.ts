import { createLogger } from './logger';
import { routeProcessOutput } from './process-output';

/**
 * Child of logger.crash.spec.ts: logs like a deployable (JSON on stdout), then, by argv[2]:
 * `warn` logs a warning, tells the parent and waits to be killed with SIGKILL; `throw` dies of
 * an uncaught error; `warning` emits a process warning and exits.
 */
const logger = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'crash-child');
routeProcessOutput(logger);
for (let line = 1; line <= 3; line++) logger.info({ line }, 'info line');
switch (process.argv[2]) {
  case 'warn':
    logger.warn('the last words');
    process.send?.('logged');
    setInterval(() => undefined, 60_000);
    break;
  case 'throw':
    setImmediate(() => {
      throw new Error('boom');
    });
    break;
  case 'warning':
    process.emitWarning('NodeVersionSupportWarning: upgrade Node.js');
    setImmediate(() => process.exit(0));
    break;
}
