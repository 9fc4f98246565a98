import type { INestApplicationContext } from '@nestjs/common';
import { batchLogLines } from '../logging/stdout.destination';
import { closeOnSignal, type ProcessRuntime } from './process.runtime';
import type { StartGuard } from './start-guard';

/**
 * The last steps of every start, on a runtime already open: `create` the application, then
 * `listen`, checking the guard between them; then the process's own signal handler takes over
 * ({@link closeOnSignal}) and log lines are batched from then on. A failure or a stop in between closes the application and the
 * runtime (the embedded PostgreSQL above all) before it is rethrown.
 */
export async function startApp<A extends INestApplicationContext>(
  runtime: ProcessRuntime,
  guard: StartGuard,
  create: () => Promise<A>,
  listen: (app: A) => Promise<void>,
): Promise<A> {
  let app: A | undefined;
  try {
    app = await create();
    guard.check();
    await listen(app);
  } catch (error) {
    await closeAfterFailedStart(runtime, app);
    throw error;
  }
  closeOnSignal(runtime, app, guard);
  batchLogLines();
  return app;
}

/** Releases what a start that failed half-way opened, the database last. */
async function closeAfterFailedStart(
  runtime: ProcessRuntime,
  app: INestApplicationContext | undefined,
): Promise<void> {
  const steps = [
    () => app?.close(),
    () => runtime.engines?.close(),
    () => runtime.database.close(),
  ];
  for (const step of steps) {
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) =>
        runtime.logger.debug({ err: error }, 'closing after a failed start'),
      );
  }
}
