import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { StartupError } from '@verity/common';
import { ConfigError, loadConfig, type AppConfig } from '@verity/config';
import { createMetrics, type VerityMetrics } from '@verity/observability';
import type { CoreResources } from '../core.module';
import type { CheckResult } from '../health/health.registry';
import { createLogger } from '../logging/logger';
import { routeProcessOutput } from '../logging/process-output';
import { openDatabaseRuntime, type DatabaseRuntime } from './database.runtime';
import { buildEngines, type EnginesRuntime } from './engines.runtime';
import { exitOnSignal } from './shutdown';

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
  /** Readiness checks of the resources opened here (the data sets, when engines are built). */
  checks: Record<string, () => Promise<CheckResult>>;
}

/** Opens logger, database (embedded or DATABASE_URL), metrics and, if asked, the engines. */
export async function openProcessRuntime(
  config: AppConfig,
  name: string,
  options: { engines: boolean; joinRunningDatabase?: boolean },
): Promise<ProcessRuntime> {
  const logger = createLogger(config, name);
  routeProcessOutput(logger);
  const database = await openDatabaseRuntime(config, logger, {
    joinRunning: options.joinRunningDatabase ?? true,
  });
  const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
  const engines = options.engines ? await buildEngines(config, metrics, logger) : null;
  return {
    config,
    logger,
    database,
    metrics,
    engines,
    resources: { config, dataSource: database.dataSource, metrics, logger },
    checks: engines ? { data_sets: () => engines.dataReadiness() } : {},
  };
}

/**
 * Installs the signal handler: readiness 503, the application closes (consumers drain and
 * commit, HTTP finishes in-flight requests, ports close), then the engines, then the database
 * (an embedded PostgreSQL last).
 */
export function closeOnSignal(runtime: ProcessRuntime, app: INestApplicationContext): void {
  const { engines, database } = runtime;
  exitOnSignal(runtime.logger, runtime.config.SHUTDOWN_TIMEOUT_MS, {
    app,
    after: [
      ...(engines ? [{ name: 'engines', close: () => engines.close() }] : []),
      {
        name: database.embedded ? 'database (embedded PostgreSQL)' : 'database',
        close: () => database.close(),
      },
    ],
  });
}

/**
 * Runs a deployable's main: loads the configuration once, and turns a failure to boot into a
 * message on stderr (one sentence for configuration and start-up errors, else the stack) and
 * exit code 1.
 */
export function runMain(name: string, main: (config: AppConfig) => Promise<void>): void {
  const fail = (error: unknown) => {
    process.stderr.write(
      error instanceof ConfigError || error instanceof StartupError
        ? `${name}: ${error.message}\n`
        : `${name}: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  };
  try {
    main(loadConfig(undefined, { deployable: true })).catch(fail);
  } catch (error) {
    fail(error);
  }
}
