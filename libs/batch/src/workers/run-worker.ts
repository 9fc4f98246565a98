import type { DynamicModule, Type } from '@nestjs/common';
import { listenOn, openProcessRuntime, runMain, startApp } from '@verity/platform';
import { createWorkerApp } from './create-worker-app';

/**
 * Boots a worker deployable: runtime (engines only for the scorer), Nest app, HTTP, signals.
 * `reportOnly` names the readiness checks its work does not need (see HealthRegistry).
 */
export function runWorker(
  name: string,
  modules: (Type | DynamicModule)[],
  withEngines: boolean,
  reportOnly: readonly string[] = [],
): void {
  runMain(name, async (config, guard) => {
    const runtime = await openProcessRuntime(config, name, { engines: withEngines, guard });
    await startApp(
      runtime,
      guard,
      () =>
        createWorkerApp({
          resources: runtime.resources,
          logger: runtime.logger,
          modules,
          engines: runtime.engines?.engines,
          checks: runtime.checks,
          reportOnly,
        }),
      (app) => listenOn(app, config),
    );
    runtime.logger.info({ port: config.PORT, host: config.HOST }, `${name} listening`);
  });
}
