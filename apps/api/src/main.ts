import 'reflect-metadata';
import { ConfigError, loadConfig } from '@verity/config';
import { createMetrics } from '@verity/observability';
import { buildEngines, createLogger, exitOnSignal, openDatabaseRuntime } from '@verity/platform';
import { createApiApp } from './create-api-app';

/** The API deployable on its own (distributed mode): `node dist/apps/api/src/main.js`. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config, 'verity-api');
  const database = await openDatabaseRuntime(config, logger);
  const metrics = config.METRICS_ENABLED ? createMetrics({ defaults: true }) : null;
  const engines = await buildEngines(config, metrics);
  const app = await createApiApp({
    resources: { config, dataSource: database.dataSource, metrics },
    engines: engines.engines,
    logger,
    checks: { data_sets: () => engines.dataReadiness() },
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, host: config.HOST }, 'api listening');
  // Readiness 503, close HTTP (in-flight requests finish), the ports, the engines, the database.
  exitOnSignal(logger, config.SHUTDOWN_TIMEOUT_MS, {
    app,
    after: [
      { name: 'engines', close: () => engines.close() },
      { name: 'database', close: () => database.close() },
    ],
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `verity-api: ${error.message}\n`
      : `verity-api: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
