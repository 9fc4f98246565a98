import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { HealthRegistry } from '../health/health.registry';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** What a deployable closes on a signal: its Nest application, then `after` in order. */
export interface GracefulClose {
  app: INestApplicationContext;
  after: readonly ShutdownStep[];
}

/**
 * The process's one signal handler (Nest's enableShutdownHooks is not used: it re-raises the
 * signal after closing, which would race this exit code). On SIGTERM or SIGINT runs `close`
 * once (a function, or an application and its resources closed by {@link closeGracefully})
 * and exits 0; if that fails, or takes longer than `timeoutMs`, the process exits 1. Repeated
 * signals while closing are ignored.
 *
 * Listeners other libraries put on these signals are removed: a library's own handler (such
 * as async-exit-hook) could stop a resource or exit while the application is still draining.
 * An embedded PostgreSQL is still asked to stop on 'exit' if the bound is hit. Returns the
 * handler, for a stop that arrived before it was installed (`StartGuard.handOver`).
 */
export function exitOnSignal(
  logger: Logger,
  timeoutMs: number,
  close: (() => Promise<void>) | GracefulClose,
): (signal: NodeJS.Signals) => void {
  const run =
    typeof close === 'function' ? close : () => closeGracefully(logger, close.app, close.after);
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) {
      // Ignored: `npm start` forwards the terminal's Ctrl-C that the process also receives
      // itself, so a repeat is no request to hurry. The bound still ends a hung shutdown.
      logger.info({ signal }, 'already shutting down');
      return;
    }
    closing = true;
    const started = Date.now();
    logger.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    run().then(
      () => {
        logger.info({ duration_ms: Date.now() - started }, 'shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) {
    const others = process.listeners(signal);
    // Added before the others go: Node closes a signal's watcher with its last listener, and
    // a signal already caught but not yet dispatched would be lost with it.
    process.on(signal, handler);
    for (const listener of others) process.removeListener(signal, listener);
    if (others.length > 0)
      logger.debug({ signal, removed: others.length }, 'replaced other signal listeners');
  }
  return handler;
}

/** A resource a deployable releases after its Nest application, e.g. the engines or the database. */
export interface ShutdownStep {
  /** Named in the log line ("<name> closed"). */
  name: string;
  close(): Promise<void>;
}

/**
 * The close sequence of a deployable, each step logged at info:
 * 1. readiness goes to 503 at once ({@link HealthRegistry.drain}), liveness stays 200;
 * 2. `app.close()`, in Nest's order: beforeApplicationShutdown hooks stop the row-bus
 *    consumers (fetching paused, in-flight chunks finish and their offsets are committed, the
 *    group is left) while /healthz, /readyz and /metrics still answer; then the HTTP server
 *    closes (no new connections, in-flight requests finish); then onApplicationShutdown hooks
 *    close the job queue (active jobs finish), the row bus and the blob store;
 * 3. `after`, in order: the engines, then the database (last: every step before may use it).
 */
export async function closeGracefully(
  logger: Logger,
  app: INestApplicationContext,
  after: readonly ShutdownStep[],
): Promise<void> {
  let health: HealthRegistry | undefined;
  try {
    health = app.get(HealthRegistry, { strict: false });
  } catch {
    health = undefined; // an application without the core module has no readiness to drain
  }
  health?.drain();
  logger.info('draining: /readyz answers 503, no new work is taken');
  logger.info('closing the application: consumers, then HTTP, then queue, bus and blob store');
  // A failed step does not skip the next ones (an embedded PostgreSQL is still stopped
  // cleanly); the first failure is rethrown at the end so the process exits 1.
  let failure: { error: unknown } | undefined;
  const steps: ShutdownStep[] = [{ name: 'application', close: () => app.close() }, ...after];
  for (const [i, resource] of steps.entries()) {
    const started = Date.now();
    try {
      await resource.close();
    } catch (error) {
      logger.error({ err: error }, `closing ${resource.name} failed`);
      failure ??= { error };
      continue;
    }
    const message =
      i === 0
        ? 'application closed: in-flight chunks and requests finished, offsets committed'
        : `${resource.name} closed`;
    logger.info({ duration_ms: Date.now() - started }, message);
  }
  if (failure) throw failure.error;
}
