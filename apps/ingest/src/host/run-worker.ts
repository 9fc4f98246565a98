import type { DynamicModule, Type } from '@nestjs/common';
import { ConfigError, loadConfig } from '@verity/config';
import { createMetrics } from '@verity/observability';
import { buildEngines, createLogger, exitOnSignal, openDatabaseRuntime } from '@verity/platform';
import { createWorkerApp } from './create-worker-app';

/** Boots a worker deployable: config, database, metrics, (engines), Nest app, HTTP, signals. */
export async function runWorker(
  name: string,
  modules: (Type | DynamicModule)[],
  withEngines: boolean,
): Promise<void> {
  try {
    const config = loadConfig();
    const logger = createLogger(config, name);
    const database = await openDatabaseRuntime(config, logger);
    const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
    const engines = withEngines ? await buildEngines(config, metrics) : null;
    const app = await createWorkerApp({
      resources: { config, dataSource: database.dataSource, metrics },
      logger,
      modules,
      engines: engines?.engines,
    });
    await app.listen({ port: config.PORT, host: config.HOST });
    logger.info({ port: config.PORT, host: config.HOST }, `${name} listening`);
    // Readiness 503, stop consuming, finish and commit in-flight work (Nest shutdown hooks),
    // close HTTP and the ports, then the engines and the database.
    exitOnSignal(logger, config.SHUTDOWN_TIMEOUT_MS, {
      app,
      after: [
        ...(engines ? [{ name: 'engines', close: () => engines.close() }] : []),
        { name: 'database', close: () => database.close() },
      ],
    });
  } catch (error) {
    process.stderr.write(
      error instanceof ConfigError
        ? `${name}: ${error.message}\n`
        : `${name}: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  }
}
