import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { StartupError } from '@verity/common';
import { ConfigError, loadConfig, type AppConfig } from '@verity/config';
import { createMetrics, type VerityMetrics } from '@verity/observability';
import type { CoreResources } from '../core.module';
import type { ResourceCheck } from '../health/health.registry';
import { createLogger } from '../logging/logger';
import { routeProcessOutput } from '../logging/process-output';
import { openDatabaseRuntime, type DatabaseRuntime } from './database.runtime';
import { buildEngines, type EnginesRuntime } from './engines.runtime';
import { exitOnSignal } from './shutdown';
import { StartGuard, StartStopped } from './start-guard';

/** What every deployable opens before its Nest application: the same sequence everywhere. */
export interface ProcessRuntime {
  config: AppConfig;
  logger: Logger;
  database: DatabaseRuntime;
  metrics: VerityMetrics | null;
  /** Null for processes that validate nothing (ingest). */
  engines: EnginesRuntime | null;
  /** Config, database and metrics, as CoreModule takes them. */
  resources: CoreResources;
  /** Readiness checks of the resources opened here (data sets and resolvers, when engines are built). */
  checks: Record<string, ResourceCheck>;
}

/**
 * Opens logger, database (embedded or DATABASE_URL), metrics and, if asked, the engines. A
 * stop asked through `guard` while it opens them closes what was opened and throws
 * {@link StartStopped}, as any failure does.
 */
export async function openProcessRuntime(
  config: AppConfig,
  name: string,
  options: { engines: boolean; joinRunningDatabase?: boolean; guard?: StartGuard },
): Promise<ProcessRuntime> {
  const logger = createLogger(config, name);
  routeProcessOutput(logger);
  options.guard?.useLogger(logger);
  const database = await openDatabaseRuntime(config, logger, {
    joinRunning: options.joinRunningDatabase ?? true,
    signal: options.guard?.signal,
  });
  const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
  let engines: EnginesRuntime | null = null;
  try {
    options.guard?.check();
    engines = options.engines ? await buildEngines(config, metrics, logger) : null;
    options.guard?.check();
  } catch (error) {
    await engines?.close().catch(() => undefined);
    await database
      .close()
      .catch((closing: unknown) =>
        logger.debug({ err: closing }, 'closing the database after a failed start'),
      );
    throw error;
  }
  return {
    config,
    logger,
    database,
    metrics,
    engines,
    resources: { config, dataSource: database.dataSource, metrics, logger },
    checks: engines ? engines.checks() : {},
  };
}

/**
 * Installs the signal handler: readiness 503, the application closes (consumers drain and
 * commit, HTTP finishes in-flight requests, ports close), then the engines, then the database
 * (an embedded PostgreSQL last). It takes over from the start's `guard`: a stop asked since
 * the start's last check begins the close at once.
 */
export function closeOnSignal(
  runtime: ProcessRuntime,
  app: INestApplicationContext,
  guard: StartGuard,
): void {
  const { engines, database } = runtime;
  const handler = exitOnSignal(runtime.logger, runtime.config.SHUTDOWN_TIMEOUT_MS, {
    app,
    after: [
      ...(engines ? [{ name: 'engines', close: () => engines.close() }] : []),
      {
        name: database.embedded ? 'database (embedded PostgreSQL)' : 'database',
        close: () => database.close(),
      },
    ],
  });
  guard.handOver(handler);
}

/**
 * Runs a deployable's main: loads the configuration once, guards the start against a stop
 * ({@link StartGuard}: a signal during the start closes what it opened and exits 0), and turns
 * a failure to boot into a message on stderr (one sentence for configuration and start-up
 * errors, else the stack) and exit code 1.
 */
export function runMain(
  name: string,
  main: (config: AppConfig, guard: StartGuard) => Promise<void>,
): void {
  let guard: StartGuard | null = null;
  const fail = (error: unknown) => {
    // Once stopped, a step's failure is the stop's doing (Ctrl-C reaches the job's children too).
    if (guard && (error instanceof StartStopped || guard.stopped)) guard.exitStopped();
    process.stderr.write(
      error instanceof ConfigError || error instanceof StartupError
        ? `${name}: ${error.message}\n`
        : `${name}: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  };
  try {
    const config = loadConfig(undefined, { deployable: true });
    guard = StartGuard.install(config.SHUTDOWN_TIMEOUT_MS);
    main(config, guard).catch(fail);
  } catch (error) {
    fail(error);
  }
}
